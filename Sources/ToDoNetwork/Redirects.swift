import ToDoCore

/// Redirects, followed by the transport itself: with the method and body (a `303` with a GET), and
/// credentials only to the same origin.
package enum Redirects {
    package static let maximum = 10

    /// The answer to `request`, sent with `sendOnce`, after the redirects it leads to.
    package static func follow(
        _ request: HTTPRequest, _ sendOnce: (HTTPRequest) throws(HTTPError) -> HTTPResponse
    ) throws(HTTPError) -> HTTPResponse {
        var current = request
        for _ in 0...maximum {
            var response = try sendOnce(current)
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response.header("location"),
                let next = WebAddress(string: location, relativeTo: current.url), next.isWebAddress
            else {
                if current.url != request.url { response.redirectedTo = current.url }
                return response
            }
            if response.status == 303 { (current.method, current.body) = ("GET", nil) }
            if !next.hasSameOrigin(as: current.url) { current.credentials = nil }
            current.url = next
        }
        throw .failed("more than \(maximum) redirects")
    }
}
