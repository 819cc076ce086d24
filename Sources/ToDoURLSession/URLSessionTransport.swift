import Dispatch
import Foundation
import ToDoCore
import ToDoNetwork

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if os(Linux)
import CurlLoader
#endif

/// Makes requests with Foundation's `URLSession`: the HTTP client of the toolchain, with TLS,
/// proxies (`https_proxy`) and redirects. The body is taken as it arrives and given up past the
/// request's limit, so that a huge or endlessly inflating answer (a gzip bomb) costs no more memory
/// than the limit; the whole request ends by its deadline, however slowly the answer trickles in.
public struct URLSessionTransport: HTTPTransport {
    /// One session for every request this transport makes: they share its connections, so that
    /// a first sync's thousand PUTs to a server far away make one handshake, not a thousand.
    private let shared = SharedSession()

    public init() {}

    public func send(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        #if os(Linux)
        guard todo_curl_load() == 1 else {
            let reason = todo_curl_load_error().map { String(cString: $0) } ?? "libcurl.so.4 could not be loaded"
            throw .unavailable(reason)
        }
        #endif
        let deadline = DispatchTime.now() + request.timeout
        // Redirects are followed here, not by URLSession: on Linux it drops the body of the
        // request it sends on (a PROPFIND arrives empty), and it would send credentials anywhere.
        return try Redirects.follow(request) { current throws(HTTPError) in try sendOnce(current, until: deadline) }
    }

    private func sendOnce(_ request: HTTPRequest, until deadline: DispatchTime) throws(HTTPError) -> HTTPResponse {
        let receiver = Receiver(limit: request.maximumBodyBytes)
        guard let url = URL(string: request.url.absoluteString) else {
            throw .failed("Foundation cannot take the address \(request.url)")
        }
        var urlRequest = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        if let body = request.body { urlRequest.httpBody = Data(body) }
        for (name, value) in request.headersAsSent { urlRequest.setValue(value, forHTTPHeaderField: name) }

        let task = shared.start(urlRequest, for: receiver)
        // The deadline is a timer on the monotonic clock that ends the wait: a semaphore's timed
        // wait takes a wall-clock deadline on Linux (sem_timedwait), which a clock set back (NTP,
        // a laptop woken from sleep) would stretch by as much.
        let deadlineTimer = DispatchWorkItem { receiver.giveUp() }
        DispatchQueue.global().asyncAfter(deadline: deadline, execute: deadlineTimer)
        receiver.done.wait()
        deadlineTimer.cancel()
        guard !receiver.gaveUp else {
            task.cancel()
            throw .timedOut(seconds: request.timeout)
        }
        let outcome = receiver.outcome()
        if outcome.exceeded { throw .tooLarge(limit: request.maximumBodyBytes) }
        if let encoding = outcome.unrequestedEncoding {
            throw .failed("the server sent a compressed answer (\(encoding)), which todo did not ask for")
        }
        if let error = outcome.error {
            let code = (error as NSError).code
            if code == NSURLErrorTimedOut { throw .timedOut(seconds: request.timeout) }
            throw .failed(Self.message(for: error))
        }
        guard let response = outcome.response else { throw .failed("the answer was not HTTP") }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in response.allHeaderFields {
            headers[name.lowercased()] = value
        }
        return HTTPResponse(status: response.statusCode, headers: headers, body: outcome.body)
    }

    /// The session the transport's requests share, made with its first request; each task's
    /// events go to the `Receiver` of its request.
    private final class SharedSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var session: URLSession?
        private var receivers: [Int: Receiver] = [:]

        /// Starts `request`, whose events go to `receiver`.
        func start(_ request: URLRequest, for receiver: Receiver) -> URLSessionDataTask {
            lock.lock()
            defer { lock.unlock() }
            let session = self.session ?? Self.makeSession(delegate: self)
            self.session = session
            let task = session.dataTask(with: request)
            receivers[task.taskIdentifier] = receiver
            task.resume()
            return task
        }

        deinit {
            session?.finishTasksAndInvalidate()
        }

        private static func makeSession(delegate: SharedSession) -> URLSession {
            let configuration = URLSessionTransport.makeConfiguration()
            // Each request's own timeout (`URLRequest.timeoutInterval`) and deadline bound it.
            configuration.timeoutIntervalForRequest = 24 * 3600
            configuration.timeoutIntervalForResource = 24 * 3600
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            // No cookie, cache or credential store: todo keeps nothing of a request, and Foundation's
            // stores would create folders of their own under the user's data directory.
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.urlCache = nil
            configuration.urlCredentialStorage = nil
            // URLSession holds its delegate until it is invalidated (in `deinit`, when the
            // transport is gone).
            return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        }

        private func receiver(of task: URLSessionTask, finished: Bool = false) -> Receiver? {
            lock.lock()
            defer { lock.unlock() }
            return finished ? receivers.removeValue(forKey: task.taskIdentifier) : receivers[task.taskIdentifier]
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            guard let receiver = receiver(of: dataTask) else { return completionHandler(.cancel) }
            receiver.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            receiver(of: dataTask)?.urlSession(session, dataTask: dataTask, didReceive: data)
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            guard let receiver = receiver(of: task) else { return completionHandler(.rejectProtectionSpace, nil) }
            receiver.urlSession(session, task: task, didReceive: challenge, completionHandler: completionHandler)
        }

        /// A redirect is not followed: the transport sends the request on itself (see `send`).
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            receiver(of: task, finished: true)?.urlSession(session, task: task, didCompleteWithError: error)
        }
    }

    /// A configuration made so that Foundation creates no folder: on Linux, making one creates a
    /// cookie folder under the user's data directory and a cache folder under the cache directory
    /// (named after the executable's folder: `~/.local/share/bin`), even for an ephemeral session.
    /// While it is made, both directories name a place where no folder can be created.
    private static func makeConfiguration() -> URLSessionConfiguration {
        #if os(Linux)
        let saved: [(name: String, value: String?)] = ["XDG_DATA_HOME", "XDG_CACHE_HOME"].map { name in
            (name, getenv(name).map { String(cString: $0) })
        }
        for (name, _) in saved { setenv(name, "/dev/null", 1) }
        defer {
            for (name, value) in saved {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
        }
        #endif
        return URLSessionConfiguration.ephemeral
    }

    /// The system's words for a failure, as "Could not resolve host: example.org".
    private static func message(for error: Error) -> String {
        let error = error as NSError
        if let text = error.userInfo[NSLocalizedDescriptionKey] as? String, !text.isEmpty { return text }
        return "error \(error.code) (\(error.domain))"
    }

    /// Takes the answer to one request as URLSession delivers it, on URLSession's queue, and hands
    /// it to the caller once the task is complete.
    private final class Receiver: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private let limit: Int
        private let lock = NSLock()
        private var body: [UInt8] = []
        private var response: HTTPURLResponse?
        private var error: Error?
        private var exceeded = false

        /// Whether the deadline came before the answer.
        var gaveUp: Bool {
            lock.lock()
            defer { lock.unlock() }
            return deadlinePassed
        }
        private var deadlinePassed = false
        private var ended = false

        init(limit: Int) {
            self.limit = limit
        }

        /// Ends the wait for the answer, unless it ended already.
        func giveUp() {
            lock.lock()
            defer { lock.unlock() }
            guard !ended else { return }
            ended = true
            deadlinePassed = true
            done.signal()
        }

        /// Ends the wait with the answer, unless the deadline ended it.
        func finish() {
            lock.lock()
            defer { lock.unlock() }
            guard !ended else { return }
            ended = true
            done.signal()
        }

        func outcome() -> (
            body: [UInt8], response: HTTPURLResponse?, error: Error?, exceeded: Bool, unrequestedEncoding: String?
        ) {
            lock.lock()
            defer { lock.unlock() }
            if let challengeResponse { return ([], challengeResponse, nil, false, nil) }
            return (body, response, error, exceeded, unrequestedEncoding)
        }

        /// A `Content-Encoding` the body still has: on Linux libcurl is not let to decode (see
        /// CurlLoader.c), so such a body is not the text it stands for.
        private var unrequestedEncoding: String?

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            lock.lock()
            self.response = response as? HTTPURLResponse
            // A length announced beyond the limit is not waited for.
            if response.expectedContentLength > Int64(limit) { exceeded = true }
            #if os(Linux)
            if let encoding = self.response?.value(forHTTPHeaderField: "Content-Encoding"),
                encoding.lowercased() != "identity"
            {
                unrequestedEncoding = encoding
            }
            #endif
            let refused = exceeded || unrequestedEncoding != nil
            lock.unlock()
            completionHandler(refused ? .cancel : .allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            lock.lock()
            defer { lock.unlock() }
            guard !exceeded else { return }
            if body.count + data.count > limit {
                exceeded = true
                body = []
                dataTask.cancel()
                return
            }
            body.append(contentsOf: data)
        }

        // Without an answer to a challenge, URLSession on Linux waits forever on a 401 (see
        // SYNC.md), and with the default handling too; todo sends no credentials here, so the
        // challenge is turned down and its response (the 401) is the answer. Credentials, when
        // the request has them, went with it already (`Authorization`).
        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            lock.lock()
            challengeResponse = challenge.failureResponse as? HTTPURLResponse
            lock.unlock()
            completionHandler(.rejectProtectionSpace, nil)
        }

        /// The response that asked for credentials, when one did.
        private var challengeResponse: HTTPURLResponse?

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            lock.lock()
            self.error = error
            lock.unlock()
            finish()
        }
    }
}
