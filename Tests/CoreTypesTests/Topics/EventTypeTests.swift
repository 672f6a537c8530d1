import CoreTypes
import Testing

@Suite struct EventTypeTests {
    @Test func requestsAndResponsesPairUp() {
        for eventType in EventType.allCases {
            if let response = eventType.responseType {
                #expect(eventType.isRequest && eventType.isTwoWay)
                #expect(response.isResponse && response.isTwoWay)
                #expect(response.requestType == eventType)
            }
            #expect(!(eventType.isRequest && eventType.isResponse))
            #expect(eventType.isOneWay != eventType.isTwoWay)
            #expect(eventType.isOneWay || eventType.isRequest || eventType.isResponse)
        }
        #expect(EventType.allCases.filter(\.isRequest) == [.discover, .query, .update, .call])
        #expect(EventType.allCases.filter(\.isResponse) == [.resolve, .retrieve, .complete, .return])
    }

    @Test func oneWayEventsAreTheFiveOfTheWireProtocol() {
        #expect(EventType.allCases.filter(\.isOneWay) == [.advertise, .deadvertise, .channel, .associate, .ioValue])
    }

    @Test func filtersAreRequiredOnAdvertiseChannelAssociateUpdateAndCall() {
        #expect(
            EventType.allCases.filter(\.requiresEventTypeFilter) == [.advertise, .channel, .associate, .update, .call])
    }

    @Test func rawValuesAreTheThreeLetterTopicLevelNames() {
        let names = EventType.allCases.map(\.topicLevelName)
        #expect(names == ["ADV", "DAD", "CHN", "ASC", "IOV", "DSC", "RSV", "QRY", "RTV", "UPD", "CPL", "CLL", "RTN"])
        for eventType in EventType.allCases {
            #expect(EventType(rawValue: eventType.rawValue) == eventType)
        }
        #expect(EventType.ioValue.description == "IoValue")
        #expect(EventType.return.description == "Return")
    }
}
