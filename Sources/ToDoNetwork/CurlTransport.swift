#if os(Linux)
import CurlLoader
import Dispatch
import ToDoCore
import ToDoModel
import ToDoStorage

/// Makes requests with libcurl's easy interface, loaded when the first request is made: one
/// blocking call per request, which waits for the answer in poll(). On Linux, URLSession keeps a
/// core busy while it waits (its libdispatch sources wake each other without pause): a second of
/// a server's thinking cost todo a second of CPU. The body is counted as it arrives and given up
/// past the request's limit; a compressed answer is refused before its body is taken (todo asks
/// for none, and a gzip bomb inflates faster than any limit is checked); the whole request,
/// redirects and all, ends by its deadline.
public struct CurlTransport: HTTPTransport {
    public init() {}

    public func send(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        guard todo_curl_load() == 1 else {
            throw .unavailable(todo_curl_load_error().map { String(cString: $0) } ?? "libcurl.so.4 could not be loaded")
        }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(request.timeout * 1e9)
        return try Redirects.follow(request) { current throws(HTTPError) in
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { throw .timedOut(seconds: request.timeout) }
            return try sendOnce(
                current, milliseconds: max(1, Int((deadline - now) / 1_000_000)), timeout: request.timeout)
        }
    }

    private func sendOnce(_ request: HTTPRequest, milliseconds: Int, timeout: Double) throws(HTTPError) -> HTTPResponse
    {
        var headers = request.headersAsSent
        // A body is sent at once, without waiting for a 100 Continue.
        headers["Expect"] = ""
        let lines = headers.map { $0.value.isEmpty ? "\($0.key):" : "\($0.key): \($0.value)" }
        var answer = todo_http_answer()
        answer.limit = request.maximumBodyBytes
        defer { todo_http_answer_free(&answer) }
        // The header lines as C strings, alive for the call.
        let headerCopies = lines.map { strdup($0) }
        defer { headerCopies.forEach { free($0) } }
        let code = headerCopies.withUnsafeBufferPointer { headerPointers in
            (request.body ?? []).withUnsafeBufferPointer { body in
                todo_http_perform(
                    request.method, request.url.absoluteString, headerPointers.baseAddress, Int32(lines.count),
                    request.body == nil ? nil : (body.baseAddress ?? UnsafePointer(bitPattern: 1)), body.count,
                    milliseconds, &answer)
            }
        }
        let received = Self.headers(answer)
        if answer.refused != 0 {
            throw .failed(
                "the server sent a compressed answer (\(received["content-encoding"] ?? "")), which todo did not ask for"
            )
        }
        if answer.exceeded != 0 { throw .tooLarge(limit: request.maximumBodyBytes) }
        guard code == 0 else {
            if code == 28 { throw .timedOut(seconds: timeout) }
            let message = withUnsafeBytes(of: answer.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw .failed(message.isEmpty ? "libcurl error \(code)" : message)
        }
        let body =
            answer.body_length == 0 ? [] : Array(UnsafeBufferPointer(start: answer.body, count: answer.body_length))
        return HTTPResponse(status: Int(answer.status), headers: received, body: body)
    }

    /// The headers of the answer, by name in lower case.
    private static func headers(_ answer: todo_http_answer) -> [String: String] {
        var fields: [String: String] = [:]
        if answer.headers_length > 0 {
            let text = String(
                decoding: UnsafeBufferPointer(start: answer.headers, count: answer.headers_length), as: UTF8.self)
            for line in text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].lowercased(),
                    value = Whitespace.trimmingSpaces(line[line.index(after: colon)...])
                fields[name] = value
            }
        }
        return fields
    }
}
#endif
