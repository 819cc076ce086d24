import Foundation

/// What `todo sync` asks of a CalDAV server (RFC 4791, with RFC 6578's sync-collection), over an
/// `HTTPTransport`: finding the calendars that hold tasks, making one, listing a calendar's tasks
/// and their etags, fetching them, and storing and deleting one without overwriting a change it
/// has not seen (`If-Match`, `If-None-Match: *`). Every body it sends is XML or iCalendar; every
/// answer is read as the servers of SYNC.md answer (a property a server lacks comes back under
/// a 404 `propstat`; hrefs are the server's own).
public struct CalDAVClient: Sendable {
    public let transport: any HTTPTransport
    public let credentials: HTTPCredentials?
    /// Seconds a request may take; a calendar of 10,000 tasks takes seconds to list.
    public let timeout: Double
    /// The largest answer taken (a multistatus of 10,000 etags is 2.4 MB).
    public let maximumBodyBytes: Int

    public init(transport: any HTTPTransport, credentials: HTTPCredentials?, timeout: Double = 60, maximumBodyBytes: Int = 256 << 20) {
        self.transport = transport
        self.credentials = credentials
        self.timeout = timeout
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// A calendar collection.
    public struct Calendar: Equatable, Sendable {
        public var url: URL
        public var displayName: String?
        /// The components it takes (`VTODO`, `VEVENT`…); empty when the server does not say,
        /// which RFC 4791 reads as any.
        public var components: [String]

        public var holdsTasks: Bool { components.isEmpty || components.contains("VTODO") }

        public init(url: URL, displayName: String?, components: [String]) {
            self.url = url
            self.displayName = displayName
            self.components = components
        }
    }

    /// A task's resource: where it is, and its etag when the server gave one.
    public struct Resource: Equatable, Sendable {
        public var href: String
        public var etag: String?
    }

    // MARK: Finding calendars

    /// The calendars at `url`: the calendar itself when it names one; else the calendars of the
    /// home of the user the server knows by the credentials, found as RFC 6764 and RFC 4791
    /// say (`/.well-known/caldav`, `current-user-principal`, `calendar-home-set`).
    public func calendars(at url: URL) throws(CalDAVError) -> (home: URL?, calendars: [Calendar]) {
        let dav = DAVNamespace.dav, calDAV = DAVNamespace.calDAV
        let asked = try properties(of: url, depth: 0, ["<d:resourcetype/>", "<d:displayname/>", "<c:supported-calendar-component-set/>",
                                                       "<d:current-user-principal/>", "<c:calendar-home-set/>"])
        if let own = asked.responses.first, own.property(dav, "resourcetype")?.child(calDAV, "calendar") != nil {
            return (nil, [Self.calendar(own, base: url)])
        }
        var home = asked.responses.first?.property(calDAV, "calendar-home-set").flatMap { hrefURL($0, base: url) }
        if home == nil {
            var principal = asked.responses.first?.property(dav, "current-user-principal").flatMap { hrefURL($0, base: url) }
            if principal == nil {
                // A server's root may not say who asks; its well-known address does (RFC 6764).
                let wellKnown = try properties(of: url.appendingPathComponent(".well-known/caldav"), depth: 0, ["<d:current-user-principal/>"])
                principal = wellKnown.responses.first?.property(dav, "current-user-principal").flatMap { hrefURL($0, base: url) }
            }
            guard let principal else { throw .notCalDAV("\(url.absoluteString) names no calendar and no user's calendars") }
            let found = try properties(of: principal, depth: 0, ["<c:calendar-home-set/>"])
            home = found.responses.first?.property(calDAV, "calendar-home-set").flatMap { hrefURL($0, base: principal) }
        }
        guard let home else { throw .notCalDAV("the server names no calendar home for this user") }
        let listed = try properties(of: home, depth: 1, ["<d:resourcetype/>", "<d:displayname/>", "<c:supported-calendar-component-set/>"])
        let calendars = listed.responses.filter { $0.property(dav, "resourcetype")?.child(calDAV, "calendar") != nil }
            .map { Self.calendar($0, base: home) }
        return (home, calendars)
    }

    /// Makes a calendar for tasks only, named `name`, in `home` (MKCALENDAR); its address is the
    /// home's with a name made of `slug`.
    public func makeCalendar(named name: String, slug: String, in home: URL) throws(CalDAVError) -> Calendar {
        let url = home.appendingPathComponent(slug, isDirectory: true)
        let body = #"<?xml version="1.0" encoding="utf-8"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
            + "<d:set><d:prop><d:displayname>\(Self.escaped(name))</d:displayname>"
            + #"<c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set>"#
            + "</d:prop></d:set></c:mkcalendar>"
        let answer = try send("MKCALENDAR", url, body: body)
        guard answer.isSuccess else { throw unexpected(answer, "making the calendar \(name)") }
        return Calendar(url: url, displayName: name, components: ["VTODO"])
    }

    // MARK: A calendar's tasks

    /// Every task of the calendar with its etag: a `calendar-query` for VTODO components, so that
    /// a mixed calendar's events are left out.
    public func tasks(in calendar: URL) throws(CalDAVError) -> [Resource] {
        let body = #"<?xml version="1.0" encoding="utf-8"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
            + #"<d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter>"#
            + "</c:calendar-query>"
        let answer = try multistatus("REPORT", calendar, depth: 1, body: body, "listing the calendar's tasks")
        let collection = Self.canonicalPath(of: calendar)
        return answer.responses.compactMap { response in
            let href = Self.canonicalHref(response.href)
            guard response.status == nil, !Self.isCollection(href, collection) else { return nil }
            return Resource(href: href, etag: response.text(DAVNamespace.dav, "getetag"))
        }
    }

    /// What changed in the calendar since `token` (RFC 6578): resources changed or added, with
    /// their etags; those deleted; and the token to ask with next time. `nil` when the server
    /// refuses the token (it forgot it) or has no such report, whichever status says so: list
    /// `tasks(in:)` then.
    /// With no token, every resource of the calendar counts as changed (events too: a sync
    /// report cannot filter). An answer the server cut short (a 507 for the calendar itself, as
    /// Nextcloud gives past its limit) is continued from the token it gave, until one is whole.
    public func changes(in calendar: URL, since token: String?) throws(CalDAVError) -> (changed: [Resource], deleted: [String], token: String)? {
        /// Each href's latest news, in the order first heard of.
        enum News { case changed(etag: String?), deleted }
        var news: [String: News] = [:], order: [String] = []
        var current = token
        let collection = Self.canonicalPath(of: calendar)
        for _ in 0..<Self.longestChangeListing {
            let body = #"<?xml version="1.0" encoding="utf-8"?><d:sync-collection xmlns:d="DAV:">"#
                + "<d:sync-token>\(Self.escaped(current ?? ""))</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>"
            // RFC 6578 3.2: Depth 0 (the sync-level says how deep); strict servers refuse others with 400.
            let answer = try send("REPORT", calendar, depth: 0, body: body)
            // A forgotten token (403, 412; 400 from some), or no such report (400, 403, 405, 415, 501).
            if [400, 403, 405, 412, 415, 501].contains(answer.status) { return nil }
            guard answer.status == 207 else { throw unexpected(answer, "asking what changed") }
            let parsed: DAVMultistatus
            do { parsed = try DAVMultistatus(parsing: answer.body) } catch { throw .unreadable("the list of changes", error.description) }
            guard let next = parsed.syncToken else { return nil }
            var truncated = false
            for response in parsed.responses {
                let href = Self.canonicalHref(response.href)
                if Self.isCollection(href, collection) {
                    truncated = truncated || response.status == 507
                    continue
                }
                let latest: News
                switch response.status {
                case 404: latest = .deleted
                case nil: latest = .changed(etag: response.text(DAVNamespace.dav, "getetag"))
                default: continue
                }
                if news.updateValue(latest, forKey: href) == nil { order.append(href) }
            }
            // A server that cuts short without moving on would be asked for ever.
            guard truncated, next != current else {
                if truncated { throw .unreadable("the list of changes", "the server cut it short and gave no token to go on from") }
                var changed: [Resource] = [], deleted: [String] = []
                for href in order {
                    switch news[href] {
                    case .changed(let etag)?: changed.append(Resource(href: href, etag: etag))
                    case .deleted?: deleted.append(href)
                    case nil: break
                    }
                }
                return (changed, deleted, next)
            }
            current = next
        }
        throw .unreadable("the list of changes", "still cut short after \(Self.longestChangeListing) answers")
    }

    /// How many answers one listing of changes may take (a server cutting it short at 1,000
    /// resources would so list 100,000).
    static let longestChangeListing = 100

    /// A fetched resource: its text as the server keeps it, and its etag.
    public struct Fetched: Equatable, Sendable {
        public var href: String
        public var etag: String?
        public var text: String
    }

    /// The resources at `hrefs` (`calendar-multiget`, in batches), and the hrefs the server said
    /// are gone (404); an href it gave neither way is in neither.
    public func fetch(_ hrefs: [String], from calendar: URL, batch: Int = 100) throws(CalDAVError) -> (found: [Fetched], gone: [String]) {
        var fetched: [Fetched] = [], gone: [String] = []
        var start = 0
        while start < hrefs.count {
            let part = hrefs[start..<min(start + batch, hrefs.count)]
            start += batch
            let body = #"<?xml version="1.0" encoding="utf-8"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
                + "<d:prop><d:getetag/><c:calendar-data/></d:prop>" + part.map { "<d:href>\(Self.escaped($0))</d:href>" }.joined()
                + "</c:calendar-multiget>"
            let answer = try multistatus("REPORT", calendar, depth: 1, body: body, "fetching tasks")
            for response in answer.responses {
                if response.status == 404 { gone.append(Self.canonicalHref(response.href)) }
                guard response.status == nil, let data = response.property(DAVNamespace.calDAV, "calendar-data")?.text else { continue }
                fetched.append(Fetched(href: Self.canonicalHref(response.href), etag: response.text(DAVNamespace.dav, "getetag"), text: data))
            }
        }
        return (fetched, gone)
    }

    /// What a PUT or DELETE that names the version it replaces came to.
    public enum WriteOutcome: Equatable, Sendable {
        /// Done; the new etag when the server gave one (RFC 4791 5.3.4 lets it not, when it
        /// changed the data), and the resource's path, where a redirect may have led.
        case done(etag: String?, path: String)
        /// The resource is not the version named (412): someone changed it since; fetch and merge.
        case changedMeanwhile
    }

    /// Stores `text` at `href`: a new resource (`If-None-Match: *`) when `etag` is `nil`, else
    /// only over the version with that etag (`If-Match`). Never overwrites a change it has not seen.
    public func put(_ text: String, at href: String, in calendar: URL, replacing etag: String?) throws(CalDAVError) -> WriteOutcome {
        let condition = etag.map { ["If-Match": Self.quoted($0)] } ?? ["If-None-Match": "*"]
        let target = resolve(href, calendar)
        let answer = try send("PUT", target, body: text, headers: condition.merging(["Content-Type": "text/calendar; charset=utf-8"]) { $1 })
        if answer.status == 412 { return .changedMeanwhile }
        guard answer.isSuccess else { throw unexpected(answer, "storing \(href)") }
        return .done(etag: answer.header("etag"), path: Self.canonicalPath(of: answer.redirectedTo ?? target))
    }

    /// Deletes `href` if it is still the version with `etag`; one already gone counts as deleted.
    public func delete(_ href: String, in calendar: URL, etag: String?) throws(CalDAVError) -> WriteOutcome {
        let target = resolve(href, calendar)
        let answer = try send("DELETE", target, headers: etag.map { ["If-Match": Self.quoted($0)] } ?? [:])
        if answer.status == 412 { return .changedMeanwhile }
        guard answer.isSuccess || answer.status == 404 else { throw unexpected(answer, "deleting \(href)") }
        return .done(etag: nil, path: Self.canonicalPath(of: answer.redirectedTo ?? target))
    }

    // MARK: Requests

    private func send(_ method: String, _ url: URL, depth: Int? = nil, body: String? = nil, headers: [String: String] = [:]) throws(CalDAVError) -> HTTPResponse {
        var all = headers
        if let depth { all["Depth"] = String(depth) }
        // Xandikos answers 415 to a PROPFIND or REPORT without it.
        if body != nil, all["Content-Type"] == nil { all["Content-Type"] = "application/xml; charset=utf-8" }
        let request = HTTPRequest(method: method, url: url, headers: all, body: body.map { Array($0.utf8) }, credentials: credentials,
                                  timeout: timeout, maximumBodyBytes: maximumBodyBytes)
        let answer: HTTPResponse
        do { answer = try transport.send(request) } catch { throw .unreachable(error) }
        if answer.status == 401 {
            // A server that takes only another scheme (Baïkal asks for Digest unless set to Basic)
            // refuses every password: said as such, not as a wrong password.
            let challenges = (answer.header("www-authenticate") ?? "").lowercased()
            if !challenges.isEmpty, !challenges.contains("basic") {
                throw .schemeNotOffered(challenges.split(whereSeparator: { $0 == " " || $0 == "," }).first.map(String.init) ?? challenges)
            }
            throw .credentialsRefused
        }
        return answer
    }

    private func properties(of url: URL, depth: Int, _ names: [String]) throws(CalDAVError) -> DAVMultistatus {
        let body = #"<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop>"#
            + names.joined() + "</d:prop></d:propfind>"
        return try multistatus("PROPFIND", url, depth: depth, body: body, "asking \(url.absoluteString) what it is")
    }

    private func multistatus(_ method: String, _ url: URL, depth: Int, body: String, _ what: String) throws(CalDAVError) -> DAVMultistatus {
        let answer = try send(method, url, depth: depth, body: body)
        guard answer.status == 207 else { throw unexpected(answer, what) }
        do { return try DAVMultistatus(parsing: answer.body) } catch { throw .unreadable(what, error.description) }
    }

    private func unexpected(_ answer: HTTPResponse, _ what: String) -> CalDAVError {
        .unexpectedStatus(answer.status, while: what)
    }

    /// The URL of an href the server gave (a path, usually), against the calendar's.
    func resolve(_ href: String, _ base: URL) -> URL {
        URL(string: href, relativeTo: base)?.absoluteURL ?? base.appendingPathComponent(href)
    }

    private func hrefURL(_ property: XMLElement, base: URL) -> URL? {
        property.child(DAVNamespace.dav, "href").flatMap { URL(string: Whitespace.trimmingSpacesAndNewlines($0.text), relativeTo: base)?.absoluteURL }
    }

    private static func calendar(_ response: DAVMultistatus.Response, base: URL) -> Calendar {
        let components = response.property(DAVNamespace.calDAV, "supported-calendar-component-set")?
            .children(DAVNamespace.calDAV, "comp").compactMap { $0.attributes["name"]?.uppercased() } ?? []
        let url = URL(string: response.href, relativeTo: base)?.absoluteURL ?? base
        let name = response.text(DAVNamespace.dav, "displayname").flatMap { $0.isEmpty ? nil : $0 }
        return Calendar(url: url, displayName: name, components: components)
    }

    /// Whether `href` names the collection at `collection` (`/alice/tasks/` or `/alice/tasks`),
    /// both canonical (`canonicalHref`).
    private static func isCollection(_ href: String, _ collection: String) -> Bool {
        func trimmed(_ text: String) -> Substring { text.hasSuffix("/") ? text.dropLast() : Substring(text) }
        return trimmed(href) == trimmed(collection)
    }

    /// `text` as a segment of a resource's path on a server: ASCII letters and digits, and the
    /// characters of `kept`, as they are; every other character as `replacement`.
    public static func pathSegment(_ text: String, keeping kept: String = "", replacement: String) -> String {
        text.unicodeScalars.map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || kept.unicodeScalars.contains(scalar))
                ? String(scalar) : replacement
        }.joined()
    }

    /// An href as todo keeps and compares it: the path alone (an absolute href loses its scheme and
    /// host), every character a path segment may hold as such (`@`, `+`, `:` and the like, which
    /// Radicale writes as `%40` and SabreDAV as they are), every other byte as `%XX` in upper case.
    /// Two spellings of one resource's address become one; what they mean does not change, since
    /// a `/`, `?`, `#` or `%` that was escaped stays escaped.
    public static func canonicalHref(_ href: String) -> String {
        // Most are canonical already (a sync state holds thousands).
        if href.utf8.first == UInt8(ascii: "/"), href.utf8.allSatisfy({ isSegmentCharacter($0) || $0 == UInt8(ascii: "/") }) { return href }
        var path = Substring(href)
        if let scheme = path.range(of: "://"), !path[..<scheme.lowerBound].contains("/") {
            let rest = path[scheme.upperBound...]
            path = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
        }
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        let digits = Array("0123456789ABCDEF".utf8)
        let bytes = Array(path.utf8)
        var canonical: [UInt8] = []
        canonical.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            var byte = bytes[index], escaped = false
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) {
                byte = high << 4 | low
                escaped = true
                index += 3
            } else {
                index += 1
            }
            if isSegmentCharacter(byte) || (byte == UInt8(ascii: "/") && !escaped) {
                canonical.append(byte)
            } else {
                canonical += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            }
        }
        return String(decoding: canonical, as: UTF8.self)
    }

    /// Whether `byte` may stand as itself in a segment of a path (RFC 3986's `pchar`).
    private static func isSegmentCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return "-._~!$&'()*+,;=:@".utf8.contains(byte)
        }
    }

    /// The canonical href (`canonicalHref`) of a resource's address.
    static func canonicalPath(of url: URL) -> String {
        canonicalHref(URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path)
    }

    /// An etag as `If-Match` wants it: quoted (some servers give a bare one).
    static func quoted(_ etag: String) -> String {
        etag.hasPrefix("\"") || etag.hasPrefix("W/\"") ? etag : "\"\(etag)\""
    }

    /// Text for an XML element: `&`, `<` and `>` as references.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// Why the server could not be asked, or what it answered instead.
public enum CalDAVError: Error, Equatable, Sendable {
    /// No answer: no connection, no answer in time, TLS refused.
    case unreachable(HTTPError)
    /// 401: the user name or password is wrong.
    case credentialsRefused
    /// 401 from a server that does not offer Basic authentication, the one todo uses (over HTTPS),
    /// but only the scheme named (`digest`).
    case schemeNotOffered(String)
    /// An answer todo did not expect while doing something.
    case unexpectedStatus(Int, while: String)
    /// An answer that is not the XML it should be.
    case unreadable(String, String)
    /// The address is not a CalDAV server's, or names no calendar.
    case notCalDAV(String)
}

extension CalDAVError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unreachable(let error): return "the server could not be reached: \(error)"
        case .credentialsRefused: return "the server refused the user name and password (401)"
        case .schemeNotOffered(let scheme):
            return "the server takes only \(scheme.capitalized) authentication (401), and todo signs in with Basic over HTTPS; "
                + "set the server to accept Basic (Baïkal: Admin, Settings, WebDAV authentication type)"
        case .unexpectedStatus(let status, let what): return "the server answered \(status) while \(what)"
        case .unreadable(let what, let why): return "the server's answer while \(what) is not readable: \(why)"
        case .notCalDAV(let why): return why
        }
    }
}
