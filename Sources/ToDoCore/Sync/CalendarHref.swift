import ToDoModel
import ToDoStorage

/// Hrefs as todo keeps, compares and follows them. A server names each resource by an href that
/// may be spelled many ways (a path, a whole URL, `%7E` for `~`, `a/../b`); todo keeps one
/// spelling, RFC 3986's normal form (section 6.2.2), and follows an href only when it names a
/// resource inside the calendar, on the calendar's own server: an answer naming another host
/// (`//evil.example/x.ics`) or another collection (`/cal/../other/x.ics`) must never receive
/// the password, the list or a DELETE.
extension CalDAVClient {
    /// `href` (a path, a network-path `//host/…` or a whole URL) in RFC 3986's normal form: the
    /// path and query alone, percent-escapes of unreserved characters decoded and the others in
    /// upper case, characters a path may not hold escaped, dot segments removed, the fragment
    /// dropped. Two spellings of one address become one; escaped and unescaped reserved characters
    /// (`%40` and `@`) stay apart, as RFC 3986 has them (see `looseHref` for servers that respell).
    public static func canonicalHref(_ href: String) -> String {
        // Most are canonical already (a sync state holds thousands): a path of characters that
        // stand as themselves, with no escape, no dot segment and no empty one.
        if href.utf8.first == UInt8(ascii: "/") {
            var previous: UInt8 = 0, canonical = true
            for byte in href.utf8 {
                if !pathCharacters[Int(byte)]
                    || (previous == UInt8(ascii: "/") && (byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/")))
                {
                    canonical = false
                    break
                }
                previous = byte
            }
            if canonical { return href }
        }
        var rest = Substring(Whitespace.trimmingSpacesAndNewlines(href))
        if let (_, _, path) = splitAuthority(rest) { rest = path }
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        let queryStart = rest.firstIndex(of: "?")
        let path = normalizedEscapes(rest[..<(queryStart ?? rest.endIndex)], keeping: "/")
        let query = queryStart.map { normalizedEscapes(rest[rest.index(after: $0)...], keeping: "/?") }
        let absolute = path.hasPrefix("/") ? path : "/" + path
        return WebAddress.removingDotSegments(absolute) + (query.map { "?" + $0 } ?? "")
    }

    /// The href (`canonicalHref`) of a resource inside `calendar`, when `raw` names one: resolved
    /// against the calendar's address (RFC 3986 section 5.2), on its scheme, host and port, below
    /// its path. `nil` for any other: another server, the calendar itself, or outside it.
    public static func memberHref(_ raw: String, of calendar: WebAddress) -> String? {
        CalendarScope(calendar).member(raw)
    }

    /// Where `raw` leads from `calendar` (`CalendarScope.place(of:)`).
    static func place(of raw: String, in calendar: WebAddress) -> Place {
        CalendarScope(calendar).place(of: raw)
    }

    /// An href with every escape decoded but `%2F` (a slash within a segment): the same for the
    /// spellings a server may give one resource it was sent as another (Radicale lists `%40` for
    /// the `@` it was sent). Only for pairing a record with what is listed, never for a request.
    static func looseHref(_ href: String) -> String {
        guard href.utf8.contains(UInt8(ascii: "%")) else { return href }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(href.utf8.count)
        PercentEncoding.forEachByte(of: Array(href.utf8)) { byte, wasEscaped in
            if wasEscaped, byte == UInt8(ascii: "/") {
                PercentEncoding.appendEscaped(byte, to: &decoded)
            } else {
                decoded.append(byte)
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The canonical href (`canonicalHref`) of a resource's address.
    static func canonicalPath(of url: WebAddress) -> String {
        canonicalHref(url.path)
    }

    // MARK: The parts of a reference

    /// The scheme (`nil` for a network-path reference `//host/…`), authority and path-and-query
    /// of an href that names a server; `nil` for a path alone.
    fileprivate static func splitAuthority(
        _ href: Substring
    ) -> (scheme: Substring?, authority: Substring, path: Substring)? {
        var scheme: Substring?
        var rest = href
        if let separator = href.occurrence(of: "://"), let first = href.first, first.isLetter,
            href[..<separator.lowerBound].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
        {
            scheme = href[..<separator.lowerBound]
            rest = href[separator.upperBound...]
        } else if href.hasPrefix("//") {
            rest = href.dropFirst(2)
        } else {
            return nil
        }
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let path = rest[end...]
        return (scheme, rest[..<end], path.isEmpty || path.first != "/" ? "/" + path : path)
    }

    /// Host and port of an authority, the host in lower case and the port the scheme's when none
    /// is given; `nil` when it holds user information, which todo never sends anywhere.
    fileprivate static func origin(_ authority: Substring, scheme: String) -> String? {
        guard !authority.contains("@") else { return nil }
        let defaultPort = scheme == "https" ? "443" : "80"
        var host = authority, port = Substring(defaultPort)
        let portStart =
            authority.hasPrefix("[")
            ? authority.occurrence(of: "]:")?.upperBound
            : authority.firstIndex(of: ":").map { authority.index(after: $0) }
        if let portStart {
            host = authority[..<authority.index(before: portStart)]
            port = authority[portStart...]
            if port.isEmpty { port = Substring(defaultPort) }
            guard port.allSatisfy(\.isNumber) else { return nil }
        }
        return host.lowercased() + ":" + String(Int(port) ?? -1)
    }

    fileprivate static func origin(of url: WebAddress) -> String? {
        guard let host = url.host else { return nil }
        let scheme = url.scheme.lowercased()
        let bare = host.hasPrefix("[") ? host : (host.contains(":") ? "[\(host)]" : host)
        return origin(Substring(bare + (url.port.map { ":\($0)" } ?? "")), scheme: scheme)
    }

    // MARK: Normal form

    /// `text` with its escapes in normal form: those of unreserved characters decoded, the rest in
    /// upper case; a `%` that begins no escape, and every byte that may not stand in a path
    /// (nor is in `kept`), escaped.
    private static func normalizedEscapes(_ text: Substring, keeping kept: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        PercentEncoding.forEachByte(of: Array(text.utf8)) { byte, wasEscaped in
            let standsAsItself =
                wasEscaped ? WebAddress.isUnreserved(byte) : WebAddress.mayStandInPath(byte) || kept.utf8.contains(byte)
            if standsAsItself { result.append(byte) } else { PercentEncoding.appendEscaped(byte, to: &result) }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `WebAddress.mayStandInPath` of each byte, looked up: what a canonical href is made of.
    private static let pathCharacters: [Bool] = (0...255).map { WebAddress.mayStandInPath(UInt8($0)) }
}

/// A calendar's address taken apart once, to tell where each href of an answer leads: a listing of
/// thousands is judged against one parsed address, not thousands.
struct CalendarScope {
    /// The calendar's scheme in lower case, and its host and port (`CalDAVClient.origin`).
    private let scheme: String?
    private let origin: String?
    /// The calendar's canonical path, ending in `/`: what every resource inside it begins with.
    private let directory: String
    /// What a relative reference is merged with: the calendar's path, or its folder when the
    /// address does not end in `/` (RFC 3986 section 5.2.3).
    private let base: String

    init(_ calendar: WebAddress) {
        scheme = calendar.scheme.lowercased()
        origin = CalDAVClient.origin(of: calendar)
        let collection = CalDAVClient.canonicalPath(of: calendar)
        directory = collection.hasSuffix("/") ? collection : collection + "/"
        base =
            collection.hasSuffix("/")
            ? collection : String(collection[...(collection.lastIndex(of: "/") ?? collection.startIndex)])
    }

    /// Where `raw` leads: a resource inside the calendar, the calendar itself, or anywhere else
    /// (another scheme, host or port, user information, another collection).
    func place(of raw: String) -> CalDAVClient.Place {
        guard let href = resolved(raw) else { return .outside(raw) }
        if href.count > directory.count, href.hasPrefix(directory) { return .member(href) }
        if href == directory || href + "/" == directory { return .calendar }
        return .outside(raw)
    }

    /// The href of a resource inside the calendar that `raw` names, else `nil`.
    func member(_ raw: String) -> String? {
        if case .member(let href) = place(of: raw) { return href }
        return nil
    }

    /// `raw` resolved against the calendar's address and in normal form, when it is on the
    /// calendar's scheme, host and port; `nil` otherwise.
    private func resolved(_ raw: String) -> String? {
        let trimmed = Substring(Whitespace.trimmingSpacesAndNewlines(raw))
        var reference = trimmed
        if let (given, authority, path) = CalDAVClient.splitAuthority(trimmed) {
            guard let scheme, given.map({ $0.lowercased() }) ?? scheme == scheme,
                CalDAVClient.origin(authority, scheme: scheme) == origin
            else { return nil }
            reference = path
        } else if let colon = trimmed.firstIndex(of: ":"), !trimmed[..<colon].contains("/"),
            !trimmed[..<colon].contains("?")
        {
            // Another scheme (`mailto:`, `javascript:`) names nothing on the server.
            return nil
        }
        if !reference.hasPrefix("/") { reference = Substring(base) + reference }
        return CalDAVClient.canonicalHref(String(reference))
    }
}
