import Dispatch
import Foundation
import ToDoCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if os(Linux)
import CurlLoader
#endif

/// Makes requests with Foundation's `URLSession`: the HTTP client of the toolchain, with TLS,
/// proxies (`https_proxy`) and redirects.
public struct URLSessionTransport: HTTPTransport {
    public init() {}

    public func get(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        #if os(Linux)
        guard todo_curl_load() == 1 else {
            let reason = todo_curl_load_error().map { String(cString: $0) } ?? "libcurl.so.4 could not be loaded"
            throw .unavailable(reason)
        }
        #endif
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = request.timeout
        configuration.timeoutIntervalForResource = request.timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: request.timeout)
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }

        let outcome = Outcome()
        let task = session.dataTask(with: urlRequest) { data, response, error in
            outcome.finish(data: data, response: response, error: error)
        }
        task.resume()
        // URLSession enforces the timeout; this wait is only a backstop should it not.
        guard outcome.done.wait(timeout: .now() + request.timeout + 2) == .success else {
            task.cancel()
            throw .timedOut(seconds: request.timeout)
        }
        if let error = outcome.error {
            let code = (error as NSError).code
            if code == NSURLErrorTimedOut { throw .timedOut(seconds: request.timeout) }
            throw .failed(Self.message(for: error))
        }
        guard let response = outcome.response as? HTTPURLResponse else { throw .failed("the answer was not HTTP") }
        return HTTPResponse(status: response.statusCode, body: Array(outcome.data ?? Data()))
    }

    /// The system's words for a failure, as "Could not resolve host: example.org".
    private static func message(for error: Error) -> String {
        let error = error as NSError
        if let text = error.userInfo[NSLocalizedDescriptionKey] as? String, !text.isEmpty { return text }
        return "error \(error.code) (\(error.domain))"
    }

    /// What the task's completion handler delivers, handed from URLSession's queue to the caller.
    private final class Outcome: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private(set) var data: Data?
        private(set) var response: URLResponse?
        private(set) var error: Error?

        func finish(data: Data?, response: URLResponse?, error: Error?) {
            self.data = data
            self.response = response
            self.error = error
            done.signal()
        }
    }
}
