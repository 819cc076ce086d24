import Foundation
import ToDoCore

/// An `HTTPTransport` for unit tests: answers each request with what `answer` returns, and
/// records the requests.
public final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    private let answer: @Sendable (HTTPRequest) throws(HTTPError) -> HTTPResponse
    private let lock = NSLock()
    private var received: [HTTPRequest] = []

    public init(_ answer: @escaping @Sendable (HTTPRequest) throws(HTTPError) -> HTTPResponse) {
        self.answer = answer
    }

    /// Answers every request with `status` and `body`.
    public convenience init(status: Int = 200, body: String) {
        self.init { _ throws(HTTPError) in HTTPResponse(status: status, body: Array(body.utf8)) }
    }

    /// Fails every request with `error`.
    public convenience init(failing error: HTTPError) {
        self.init { _ throws(HTTPError) in throw error }
    }

    public var requests: [HTTPRequest] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    public func send(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        lock.lock()
        received.append(request)
        lock.unlock()
        return try answer(request)
    }
}
