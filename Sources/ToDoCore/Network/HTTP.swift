import ToDoModel
import ToDoStorage

/// A request: a GET (a geocoder, a list of items to import), or a WebDAV method with a body (a
/// CalDAV server's `PROPFIND`, `REPORT`, `PUT`).
public struct HTTPRequest: Equatable, Sendable {
    public var method: String
    public var url: WebAddress
    public var headers: [String: String]
    public var body: [UInt8]?
    /// Sent with Basic authentication, to the request's own origin only: not to another one a
    /// redirect names.
    public var credentials: HTTPCredentials?
    /// Seconds after which the whole request (redirects and all) is given up, however the answer
    /// trickles in.
    public var timeout: Double
    /// The largest body taken, counted as it arrives (after any decoding): a larger one is given
    /// up, so that a hostile or broken server cannot fill the memory.
    public var maximumBodyBytes: Int

    public init(
        method: String = "GET", url: WebAddress, headers: [String: String] = [:], body: [UInt8]? = nil,
        credentials: HTTPCredentials? = nil, timeout: Double, maximumBodyBytes: Int
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.credentials = credentials
        self.timeout = timeout
        self.maximumBodyBytes = maximumBodyBytes
    }
}

/// A user name and password for HTTP Basic authentication (RFC 7617).
public struct HTTPCredentials: Equatable, Sendable {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// The value of the `Authorization` header.
    public var basicAuthorization: String {
        "Basic " + Base64.encoded(Array((user + ":" + password).utf8))
    }
}

/// What the server answered: any status, its headers, and the body read to the end.
public struct HTTPResponse: Equatable, Sendable {
    public var status: Int
    /// Header values by name in lower case (`etag`, `location`): servers and Foundation spell
    /// names differently (`ETag`, `Etag`).
    public var headers: [String: String]
    public var body: [UInt8]
    /// Where the answer came from, when a redirect led elsewhere than the request's address.
    public var redirectedTo: WebAddress?

    public init(status: Int, headers: [String: String] = [:], body: [UInt8], redirectedTo: WebAddress? = nil) {
        self.status = status
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
        self.redirectedTo = redirectedTo
    }

    /// 200 to 299.
    public var isSuccess: Bool { (200...299).contains(status) }

    /// The value of the header `name`, in any letter case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why no response came.
public enum HTTPError: Error, Equatable, Sendable {
    /// The server took longer than the request's timeout.
    case timedOut(seconds: Double)
    /// The request could not be made or completed: no connection, a name that does not resolve,
    /// a broken TLS handshake; the message is the system's.
    case failed(String)
    /// This program cannot make HTTP requests here (on Linux: libcurl could not be loaded).
    case unavailable(String)
    /// The body was larger than the request allows; what came was dropped.
    case tooLarge(limit: Int)
}

extension HTTPError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .timedOut(let seconds): return "no answer within \(secondsText(seconds))"
        case .failed(let message): return message
        case .unavailable(let reason): return "HTTP is not available: \(reason)"
        case .tooLarge(let limit): return "the answer is larger than \(Self.size(limit)), more than todo takes"
        }
    }
}

extension HTTPError {
    /// "4 MB", "1.5 MB", "900 bytes".
    static func size(_ bytes: Int) -> String {
        guard bytes >= 1 << 20 else { return "\(bytes) bytes" }
        let megabytes = Double(bytes) / Double(1 << 20)
        return megabytes == megabytes.rounded()
            ? "\(Int(megabytes)) MB" : "\(JSONValue.literal(for: (megabytes * 10).rounded() / 10)) MB"
    }
}

/// Makes HTTP requests. The command line passes in one over `URLSession`; tests pass in their own.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and waits for the whole response, or throws when none came in time. A
    /// redirect is followed with the same method and body (a `303` with a GET).
    func send(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse
}
