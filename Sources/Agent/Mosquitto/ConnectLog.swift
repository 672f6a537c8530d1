internal import CMosquitto
import Glibc

/// What libmosquitto logged while one connection was being set up, turned into the reason a TLS
/// handshake failed.
///
/// libmosquitto reports every TLS failure as the same return code; the reason only appears in its
/// log (`OpenSSL Error[0]: …certificate verify failed`, `Error: host name verification failed.`)
/// and in OpenSSL's verify result, which ``OpenSSLVerification`` reads while the session exists.
struct ConnectLog {
    /// How many lines are kept; the first ones say why.
    static let maximumLines = 8

    /// Error and warning lines, in order.
    var lines: [String] = []
    /// OpenSSL's verify result for the broker's certificate (`X509_V_ERR_*`) and its text, if one was read.
    var verifyResult: (code: Int, text: String)?

    /// Why the TLS handshake failed, in words, or `nil` when nothing in the log concerns TLS.
    func tlsFailure(host: String) -> String? {
        var reasons: [String] = []
        let openSSLLines = lines.filter { $0.hasPrefix("OpenSSL Error") }.map { line -> String in
            guard let colon = line.firstIndex(of: ":") else { return line }
            return String(line[line.index(after: colon)...].drop(while: { $0 == " " }))
        }
        if lines.contains(where: { $0.contains("host name verification failed") }) {
            reasons.append(
                "the broker's certificate does not match the host name '\(host)' (host name verification failed)")
        } else if let verifyResult, verifyResult.code != 0 {
            reasons.append(Self.describe(verifyResult))
        }
        if openSSLLines.contains(where: { $0.contains("certificate required") || $0.contains("bad certificate") }) {
            reasons.append("the broker requires a client certificate it trusts (set the certificate and key files)")
        }
        guard !reasons.isEmpty || !openSSLLines.isEmpty else { return nil }
        if !openSSLLines.isEmpty { reasons.append("OpenSSL: " + openSSLLines.joined(separator: "; ")) }
        return "TLS handshake failed: " + reasons.joined(separator: "; ")
    }

    /// Words for an `X509_V_ERR_*` code, grouped by what the user has to fix.
    private static func describe(_ result: (code: Int, text: String)) -> String {
        switch result.code {
        case 9, 10:  // X509_V_ERR_CERT_NOT_YET_VALID, X509_V_ERR_CERT_HAS_EXPIRED
            return "the broker's certificate has expired or is not valid yet (\(result.text))"
        case 2, 18, 19, 20, 21:  // unknown issuer, self-signed, unable to verify the leaf
            return
                "the broker's certificate is not trusted: no CA in the CA file (or the system's CAs) signed it (\(result.text))"
        case 62:  // X509_V_ERR_HOSTNAME_MISMATCH
            return "the broker's certificate does not match the host name (\(result.text))"
        default:
            return "the broker's certificate was rejected (\(result.text))"
        }
    }
}

/// Reads OpenSSL's verify result of a libmosquitto TLS session.
///
/// The two functions are looked up in the OpenSSL that libmosquitto already loaded, so the package
/// needs neither OpenSSL's headers nor a link against it; without them, reasons are just omitted.
enum OpenSSLVerification {
    private typealias GetVerifyResult = @convention(c) (OpaquePointer?) -> Int
    private typealias ErrorString = @convention(c) (Int) -> UnsafePointer<CChar>?

    /// `SSL_get_verify_result` and `X509_verify_cert_error_string`, or `nil` when not loaded.
    private static let functions: (GetVerifyResult, ErrorString)? = {
        let defaultScope = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        guard let verify = dlsym(defaultScope, "SSL_get_verify_result"),
            let text = dlsym(defaultScope, "X509_verify_cert_error_string")
        else { return nil }
        return (unsafeBitCast(verify, to: GetVerifyResult.self), unsafeBitCast(text, to: ErrorString.self))
    }()

    /// The verify result of `handle`'s TLS session and its text; `nil` without a session or OpenSSL.
    /// Call on the event loop thread while libmosquitto still holds the session (from its log callback).
    static func result(of handle: OpaquePointer?) -> (code: Int, text: String)? {
        guard let handle, let functions, let session = mosquitto_ssl_get(handle) else { return nil }
        let code = functions.0(OpaquePointer(session))
        let text = functions.1(code).map { String(cString: $0) } ?? "verify error \(code)"
        return (code, text)
    }
}
