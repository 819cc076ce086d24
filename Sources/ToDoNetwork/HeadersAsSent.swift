import ToDoCore

extension HTTPRequest {
    /// The headers every transport sends: the request's own, its credentials (Basic, with the
    /// first request: a server that answers 401 without a challenge is told who asks all the
    /// same), and a plain body asked for (a compressed one is refused: the limit counts what
    /// arrives, and a gzip bomb inflates faster than any limit is checked).
    package var headersAsSent: [String: String] {
        var headers = self.headers
        if let credentials { headers["Authorization"] = credentials.basicAuthorization }
        headers["Accept-Encoding"] = "identity"
        return headers
    }
}
