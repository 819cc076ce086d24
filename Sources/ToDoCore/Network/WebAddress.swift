import ToDoModel
import ToDoStorage

/// An absolute address as RFC 3986 spells it (`https://dav.example.com/calendars/alice/tasks/`):
/// what todo sends requests to and keeps in a sync state. It stands where Foundation's `URL` stood;
/// FoundationEssentials' `URL` would bring 12 MB of that library into the binary. It is spelled as
/// `URL(string:)` spelled it: characters an address may not hold (a space, `ä`, a `%` that begins
/// no escape) escaped, everything else as given.
public struct WebAddress: Hashable, Sendable, CustomStringConvertible {
    /// The whole address, as it is sent.
    public let absoluteString: String
    /// The scheme as written (`https`); compare it in lower case.
    public let scheme: String
    /// What follows `//`, user information and port included; `nil` when there is no `//`.
    public let authority: String?
    /// The path, escapes and all: `` or `/…` after an authority.
    public let path: String
    /// The query after `?`, escapes and all.
    public let query: String?
    /// The fragment after `#`.
    public let fragment: String?

    /// `text` as an absolute address (with a scheme); `nil` for a relative reference or one that is
    /// not an address at all (a port that is not a number, a scheme with other characters).
    public init?(string text: String) {
        guard let reference = Reference(Self.escapingInvalidCharacters(text)), let scheme = reference.scheme else {
            return nil
        }
        self.init(
            scheme: scheme, authority: reference.authority, path: reference.path, query: reference.query,
            fragment: reference.fragment)
        guard portIsValid else { return nil }
    }

    /// `text`, an address or a reference relative to `base` (`x.ics`, `/dav/x.ics`, `../other/`,
    /// `//host/x`), resolved as RFC 3986 section 5.2 says; `nil` for an empty reference, as
    /// Foundation's `URL(string:relativeTo:)` gave.
    public init?(string text: String, relativeTo base: WebAddress) {
        guard !text.isEmpty, let reference = Reference(Self.escapingInvalidCharacters(text)) else { return nil }
        if let scheme = reference.scheme {
            // A whole address stands as given (as Foundation took it): it is not merged with anything.
            self.init(
                scheme: scheme, authority: reference.authority, path: reference.path, query: reference.query,
                fragment: reference.fragment)
        } else if let authority = reference.authority {
            self.init(
                scheme: base.scheme, authority: authority, path: Self.removingDotSegments(reference.path),
                query: reference.query, fragment: reference.fragment)
        } else if reference.path.isEmpty {
            self.init(
                scheme: base.scheme, authority: base.authority, path: base.path, query: reference.query ?? base.query,
                fragment: reference.fragment)
        } else {
            let path = reference.path.hasPrefix("/") ? reference.path : Self.merging(reference.path, into: base)
            self.init(
                scheme: base.scheme, authority: base.authority, path: Self.removingDotSegments(path),
                query: reference.query, fragment: reference.fragment)
        }
        guard portIsValid else { return nil }
    }

    /// A placeholder that is no one's address (RFC 2606's `.invalid`), for a value whose address
    /// is about to be read (`JSONRecord.unread`) and is refused without one.
    static let unread = WebAddress(scheme: "https", authority: "address.invalid", path: "/", query: nil, fragment: nil)

    private init(scheme: String, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
        absoluteString =
            scheme + ":" + (authority.map { "//" + $0 } ?? "") + path + (query.map { "?" + $0 } ?? "")
            + (fragment.map { "#" + $0 } ?? "")
    }

    public var description: String { absoluteString }

    // MARK: The authority's parts

    /// The host as written, without the brackets of an IPv6 address (`::1`); `nil` without an authority.
    public var host: String? {
        guard let hostAndPort = hostAndPort else { return nil }
        if hostAndPort.hasPrefix("["), let close = hostAndPort.firstIndex(of: "]") {
            return String(hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close])
        }
        return String(hostAndPort[..<(hostAndPort.lastIndex(of: ":") ?? hostAndPort.endIndex)])
    }

    /// The port when the address gives one.
    public var port: Int? {
        guard let text = portText, !text.isEmpty else { return nil }
        return Int(text)
    }

    /// Whether the address holds user information (`user:password@host`), which todo never sends.
    public var hasUserInformation: Bool {
        authority?.contains("@") ?? false
    }

    /// Whether the address is `http://host…` or `https://host…`, the only kind todo fetches.
    public var isWebAddress: Bool {
        let scheme = scheme.lowercased()
        return (scheme == "http" || scheme == "https") && !(host ?? "").isEmpty
    }

    /// Whether `other` has the same scheme, host and port: where credentials may go on a redirect.
    public func hasSameOrigin(as other: WebAddress) -> Bool {
        func port(_ address: WebAddress) -> Int? {
            address.port
                ?? (address.scheme.lowercased() == "https" ? 443 : address.scheme.lowercased() == "http" ? 80 : nil)
        }
        return scheme.lowercased() == other.scheme.lowercased() && host?.lowercased() == other.host?.lowercased()
            && port(self) == port(other)
    }

    private var hostAndPort: Substring? {
        guard let authority else { return nil }
        return authority[(authority.lastIndex(of: "@").map(authority.index(after:)) ?? authority.startIndex)...]
    }

    private var portText: Substring? {
        guard let hostAndPort else { return nil }
        let afterHost =
            hostAndPort.hasPrefix("[")
            ? (hostAndPort.firstIndex(of: "]") ?? hostAndPort.endIndex) : hostAndPort.startIndex
        guard let colon = hostAndPort[afterHost...].lastIndex(of: ":") else { return nil }
        return hostAndPort[hostAndPort.index(after: colon)...]
    }

    private var portIsValid: Bool {
        portText.map { $0.allSatisfy { ("0"..."9").contains($0) } } ?? true
    }

    // MARK: The path

    /// The last segment of the path, its escapes decoded (`Work tasks` of `/dav/Work%20tasks/`).
    public var lastPathComponent: String {
        if path == "/" { return "/" }
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        return PercentEncoding.decoded(name) ?? name
    }

    /// The address with `component` added to its path (a `/` between), characters a path may not
    /// hold escaped, and a `/` after it with `isDirectory`; `""` only ends the path with `/`.
    public func appendingPathComponent(_ component: String, isDirectory: Bool = false) -> WebAddress {
        let escaped = PercentEncoding.encoded(component) { !($0.isASCII && Self.mayStandInPath(UInt8($0.value))) }
        var newPath = path.hasSuffix("/") ? path : path + "/"
        newPath += escaped
        if isDirectory, !escaped.isEmpty, !newPath.hasSuffix("/") { newPath += "/" }
        return WebAddress(scheme: scheme, authority: authority, path: newPath, query: query, fragment: fragment)
    }

    /// The address of the folder the path's last segment is in: `/dav/cal/` and `/dav/cal` give `/dav/`.
    public func deletingLastPathComponent() -> WebAddress {
        if path.isEmpty { return self }
        var trimmed = Substring(path)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        let folder = trimmed.lastIndex(of: "/").map { String(trimmed[...$0]) } ?? "/"
        return WebAddress(scheme: scheme, authority: authority, path: folder, query: nil, fragment: nil)
    }

    /// The address on the same server with another path and query (`/dav/cal/x.ics?a=1`), given escaped.
    public func replacingPathAndQuery(with pathAndQuery: String) -> WebAddress {
        let queryStart = pathAndQuery.firstIndex(of: "?")
        return WebAddress(
            scheme: scheme, authority: authority, path: String(pathAndQuery[..<(queryStart ?? pathAndQuery.endIndex)]),
            query: queryStart.map { String(pathAndQuery[pathAndQuery.index(after: $0)...]) }, fragment: nil)
    }

    /// The address with `name=value` pairs added to its query, each escaped so that any text
    /// (spaces, `&`, `+`, `#`, non-ASCII) reaches the server as it was.
    public func appendingQuery(_ pairs: [(name: String, value: String)]) -> WebAddress {
        let added = pairs.map { "\(Self.queryEncoded($0.name))=\(Self.queryEncoded($0.value))" }
        let existing = query.map { $0.isEmpty ? [] : [$0] } ?? []
        return WebAddress(
            scheme: scheme, authority: authority, path: path, query: (existing + added).joined(separator: "&"),
            fragment: fragment)
    }

    /// Every byte but the unreserved ones of RFC 3986 as `%XX`.
    static func queryEncoded(_ text: String) -> String {
        PercentEncoding.encoded(text) { !($0.isASCII && isUnreserved(UInt8($0.value))) }
    }

    // MARK: RFC 3986

    /// A reference taken apart as RFC 3986 appendix B does.
    private struct Reference {
        var scheme: String?
        var authority: String?
        var path: String
        var query: String?
        var fragment: String?

        init?(_ text: String) {
            var rest = Substring(text)
            if let fragmentStart = rest.firstIndex(of: "#") {
                fragment = String(rest[rest.index(after: fragmentStart)...])
                rest = rest[..<fragmentStart]
            }
            if let queryStart = rest.firstIndex(of: "?") {
                query = String(rest[rest.index(after: queryStart)...])
                rest = rest[..<queryStart]
            }
            if let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains("/") {
                let name = rest[..<colon]
                guard let first = name.first, first.isASCII, first.isLetter,
                    name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
                else { return nil }
                scheme = String(name)
                rest = rest[rest.index(after: colon)...]
            }
            if rest.hasPrefix("//") {
                rest = rest.dropFirst(2)
                let end = rest.firstIndex(of: "/") ?? rest.endIndex
                authority = String(rest[..<end])
                rest = rest[end...]
            }
            path = String(rest)
        }
    }

    /// RFC 3986 5.2.3: a relative path after the base's last `/` (or `/` alone when the base has an
    /// authority and no path).
    private static func merging(_ path: String, into base: WebAddress) -> String {
        if base.authority != nil, base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return String(base.path[...slash]) + path
    }

    /// RFC 3986 5.2.4: the path without its `.` and `..` segments; never above the root.
    static func removingDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var input = Substring(path), output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "/.." {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }

    /// `text` with every byte an address may not hold as `%XX` (a `%` too, when no escape follows it).
    private static func escapingInvalidCharacters(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(where: { !mayStandInAddress($0) || $0 == UInt8(ascii: "%") }) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            let beginsEscape =
                byte == UInt8(ascii: "%") && index + 2 < bytes.count
                && HexDigit.value(bytes[index + 1]) != nil && HexDigit.value(bytes[index + 2]) != nil
            if mayStandInAddress(byte) && (byte != UInt8(ascii: "%") || beginsEscape) {
                result.append(byte)
            } else {
                PercentEncoding.appendEscaped(byte, to: &result)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// RFC 3986's unreserved and reserved characters, and `%`.
    private static func mayStandInAddress(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || ":/?#[]@!$&'()*+,;=%".utf8.contains(byte)
    }

    /// What a path segment may hold as itself (RFC 3986's `pchar`, a `%` only as an escape), and `/`.
    static func mayStandInPath(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || "!$&'()*+,;=:@/".utf8.contains(byte)
    }

    /// RFC 3986's unreserved characters: letters, digits, `-._~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default: return "-._~".utf8.contains(byte)
        }
    }
}
