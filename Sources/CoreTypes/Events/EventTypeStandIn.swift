// TEMPORARY stand-in until branch `topics` lands; deleted on merge. Not part of the events API.
public enum EventType: String, Sendable, Hashable, CaseIterable {
    case advertise = "ADV", deadvertise = "DAD", channel = "CHN", associate = "ASC", ioValue = "IOV"
    case discover = "DSC", resolve = "RSV", query = "QRY", retrieve = "RTV", update = "UPD"
    case complete = "CPL", call = "CLL", `return` = "RTN"
}
