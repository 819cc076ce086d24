import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
private let systemSend = Glibc.send
private let sendFlags = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
import Darwin
private let systemSend = Darwin.send
private let sendFlags: Int32 = 0
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for end-to-end tests: it answers each request with what
/// `respond` returns (after a delay, for a slow server), closes the connection, and records what
/// it was asked. It stops when released.
public final class LocalHTTPServer: @unchecked Sendable {
    /// A request as it arrived.
    public struct Request: Sendable {
        public var method: String
        /// The path and query, as `/search?q=Berlin&format=jsonv2&limit=1`.
        public var target: String
        /// Header names in lower case.
        public var headers: [String: String]

        /// The query's `name=value` pairs, percent-decoded.
        public var query: [String: String] {
            guard let components = URLComponents(string: "http://localhost" + target) else { return [:] }
            var pairs: [String: String] = [:]
            for item in components.queryItems ?? [] { pairs[item.name] = item.value ?? "" }
            return pairs
        }

        public var path: String { String(target.prefix { $0 != "?" }) }
    }

    /// An answer: a status, a body, and how long to wait before sending it.
    public struct Response: Sendable {
        public var status: Int
        public var body: [UInt8]
        public var contentType: String
        public var delay: TimeInterval
        /// More header lines, as `Content-Encoding: gzip`.
        public var headers: [String] = []
        /// How many times the body is sent: more than once, without a length, until the client
        /// hangs up (a body without end).
        public var repeats = 1
        /// The pause before each repeat after the first (an answer that trickles in).
        public var pause: TimeInterval = 0

        public init(status: Int = 200, body: String, contentType: String = "application/json", delay: TimeInterval = 0)
        {
            self.init(status: status, bytes: Array(body.utf8), contentType: contentType, delay: delay)
        }

        public init(
            status: Int = 200, bytes: [UInt8], contentType: String = "application/json", delay: TimeInterval = 0,
            headers: [String] = [], repeats: Int = 1, pause: TimeInterval = 0
        ) {
            self.status = status
            self.body = bytes
            self.contentType = contentType
            self.delay = delay
            self.headers = headers
            self.repeats = repeats
            self.pause = pause
        }
    }

    /// The port the server listens on.
    public let port: Int
    private let listener: Int32
    private let respond: @Sendable (Request) -> Response
    private let lock = NSLock()
    private var received: [Request] = []
    private var stopped = false

    /// Whether a connection stays open for the next request (HTTP/1.1 keep-alive) rather than
    /// closing after one answer.
    private let keepsConnectionsOpen: Bool
    private var acceptedConnections = 0

    /// Starts listening on an unused port of 127.0.0.1; with `keepingConnectionsOpen`, a client
    /// may send one request after another on a connection (bodiless ones: they are not read).
    public init(keepingConnectionsOpen: Bool = false, respond: @escaping @Sendable (Request) -> Response) throws {
        self.respond = respond
        keepsConnectionsOpen = keepingConnectionsOpen
        #if canImport(Glibc)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard listener >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        guard bound == 0, named == 0, listen(listener, 16) == 0 else {
            let code = errno
            close(listener)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        let thread = Thread { [listener, weak self] in
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 {
                    if errno == EINTR { continue }
                    return
                }
                guard let self else {
                    close(connection)
                    return
                }
                self.lock.lock()
                self.acceptedConnections += 1
                self.lock.unlock()
                DispatchQueue.global().async { self.serve(connection) }
            }
        }
        thread.start()
    }

    deinit {
        stop()
    }

    /// The server's address with `path`, as `http://127.0.0.1:40123/search`.
    public func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    /// How many connections clients have opened so far.
    public var connections: Int {
        lock.lock()
        defer { lock.unlock() }
        return acceptedConnections
    }

    /// The requests received so far, in order.
    public var requests: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Stops accepting connections; slow answers still waiting are dropped.
    public func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        while answer(connection), keepsConnectionsOpen {}
    }

    /// Reads one request and answers it; `false` when the connection has nothing more to give.
    private func answer(_ connection: Int32) -> Bool {
        guard let request = readRequest(connection) else { return false }
        lock.lock()
        received.append(request)
        lock.unlock()
        let response = respond(request)
        // Waits in small steps, so that a stopped server lets go of a slow answer.
        let deadline = Date().addingTimeInterval(response.delay)
        while Date() < deadline, !isStopped { usleep(20_000) }
        if isStopped, response.delay > 0 { return false }
        var head = "HTTP/1.1 \(response.status) \(response.status == 200 ? "OK" : "Status")\r\n"
        head += "Content-Type: \(response.contentType)\r\n"
        if response.repeats == 1 { head += "Content-Length: \(response.body.count)\r\n" }
        head +=
            response.headers.map { $0 + "\r\n" }.joined()
            + (keepsConnectionsOpen ? "\r\n" : "Connection: close\r\n\r\n")
        guard send(Array(head.utf8) + response.body, to: connection) else { return false }
        for _ in 1..<max(response.repeats, 1) {
            if response.pause > 0 { usleep(useconds_t(response.pause * 1_000_000)) }
            guard !isStopped, send(response.body, to: connection) else { return false }
        }
        return true
    }

    /// Reads the request line and headers (todo sends no body with GET).
    private func readRequest(_ connection: Int32) -> Request? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !containsHeaderEnd(bytes) {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            bytes += chunk[..<count]
        }
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers)
    }

    private func containsHeaderEnd(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4
            && (0...(bytes.count - 4)).contains {
                bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10
            }
    }

    /// Sends all of `bytes`; `false` once the client has gone.
    @discardableResult
    private func send(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                systemSend(connection, $0.baseAddress! + offset, $0.count - offset, sendFlags)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}
