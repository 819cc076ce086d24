import ToDoModel
import ToDoStorage

/// The namespaces of the properties CalDAV clients ask for.
public enum DAVNamespace {
    public static let dav = "DAV:"
    public static let calDAV = "urn:ietf:params:xml:ns:caldav"
    public static let calendarServer = "http://calendarserver.org/ns/"
}

/// A WebDAV multistatus answer (RFC 4918 section 13): a response for each resource, with the
/// properties the server has and those it has not, and for a sync-collection report (RFC 6578)
/// the token to ask for the changes after it. What PROPFIND and every CalDAV REPORT answer.
public struct DAVMultistatus: Equatable, Sendable {
    public struct Response: Equatable, Sendable {
        /// The resource, as the server wrote it (a path, percent-encoded as the server encodes it).
        public var href: String
        /// The response's own status, when it gives one instead of properties: 404 for a
        /// resource deleted since a sync token, or one a multiget asked for that is not there.
        public var status: Int?
        /// The properties found (those under a 2xx `propstat`).
        public var properties: [XMLElement]
        /// The properties asked for that the resource has not (under any other `propstat`), empty.
        public var missing: [XMLElement]

        /// The property `name` in `namespace`, when the resource has it.
        public func property(_ namespace: String, _ name: String) -> XMLElement? {
            properties.first { $0.name == name && $0.namespace == namespace }
        }

        /// The text of the property, trimmed of the white space around it; `nil` when it is not there.
        public func text(_ namespace: String, _ name: String) -> String? {
            property(namespace, name).map { Whitespace.trimmingSpacesAndNewlines($0.text) }
        }
    }

    public var responses: [Response]
    /// RFC 6578's `sync-token` of the answer, for the next sync-collection report.
    public var syncToken: String?

    public init(responses: [Response], syncToken: String? = nil) {
        self.responses = responses
        self.syncToken = syncToken
    }

    /// The properties a multistatus answer keeps (what todo asks servers for), by namespace, then
    /// name; the others are read past.
    static let propertiesKept: [String: Set<String>] = [
        DAVNamespace.dav: ["resourcetype", "displayname", "getetag", "current-user-principal"],
        DAVNamespace.calDAV: ["supported-calendar-component-set", "calendar-home-set", "calendar-data"]
    ]

    /// What those properties hold that todo reads: a calendar's type, a component's name, an href.
    static let propertyPartsKept: [String: Set<String>] = [
        DAVNamespace.dav: ["href", "collection"],
        DAVNamespace.calDAV: ["calendar", "comp"]
    ]

    /// Whether an element at `path` (from the root) is one a multistatus is read for: a response's
    /// href and status, its propstats' statuses, the properties todo uses with what they hold that
    /// todo reads, and the sync token. The rest of an answer, however large, costs no memory.
    static func isKept(_ path: [(namespace: String, name: String)]) -> Bool {
        func isDAV(_ index: Int, _ name: String) -> Bool {
            path[index].namespace == DAVNamespace.dav && path[index].name == name
        }
        switch path.count {
        case 2: return isDAV(1, "response") || isDAV(1, "sync-token")
        case 3: return isDAV(1, "response") && (isDAV(2, "href") || isDAV(2, "status") || isDAV(2, "propstat"))
        case 4: return isDAV(2, "propstat") && (isDAV(3, "prop") || isDAV(3, "status"))
        case 5: return isDAV(3, "prop") && propertiesKept[path[4].namespace]?.contains(path[4].name) == true
        case 6: return isDAV(3, "prop") && propertyPartsKept[path[5].namespace]?.contains(path[5].name) == true
        default: return false
        }
    }

    /// Reads a multistatus body: XML whose root is `DAV:multistatus`, keeping only what todo uses
    /// (`isKept`), each response turned into a `Response` as soon as it is read.
    public init(parsing bytes: [UInt8]) throws(XMLSyntaxError) {
        var responses: [Response] = [], failure: XMLSyntaxError?
        let root = try XMLReader.parse(bytes, keeping: Self.isKept) { element in
            guard element.namespace == DAVNamespace.dav, element.name == "response" else { return false }
            do throws(XMLSyntaxError) { responses.append(try Self.response(element)) } catch {
                failure = failure ?? error
            }
            return true
        }
        if let failure { throw failure }
        guard root.namespace == DAVNamespace.dav, root.name == "multistatus" else {
            throw XMLSyntaxError(
                reason:
                    "expected a DAV: multistatus, found <\(root.name)> in \(root.namespace.isEmpty ? "no namespace" : root.namespace)",
                byteOffset: 0)
        }
        self.responses = responses
        syncToken = root.child(DAVNamespace.dav, "sync-token").map { Whitespace.trimmingSpacesAndNewlines($0.text) }
    }

    private static func response(_ response: XMLElement) throws(XMLSyntaxError) -> Response {
        let dav = DAVNamespace.dav
        guard let href = response.child(dav, "href") else {
            throw XMLSyntaxError(reason: "a response without an href", byteOffset: 0)
        }
        var found: [XMLElement] = [], missing: [XMLElement] = []
        for propstat in response.children(dav, "propstat") {
            let properties = propstat.child(dav, "prop")?.children ?? []
            let status = propstat.child(dav, "status").flatMap { Self.code(ofStatusLine: $0.text) }
            if let status, (200...299).contains(status) { found += properties } else { missing += properties }
        }
        return Response(
            href: Whitespace.trimmingSpacesAndNewlines(href.text),
            status: response.child(dav, "status").flatMap { Self.code(ofStatusLine: $0.text) },
            properties: found, missing: missing)
    }

    /// The code of `HTTP/1.1 404 Not Found`.
    static func code(ofStatusLine line: String) -> Int? {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/") else { return nil }
        return Int(parts[1])
    }
}
