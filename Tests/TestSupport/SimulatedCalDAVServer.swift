import Foundation
import ToDoCore

/// A CalDAV server in the test's own process, for the sync simulator: answers todo's requests as
/// `HTTPTransport`, with no socket and no clock of its own, so that a seeded run is the same run
/// every time. It keeps the account `alice` (password `secret`) at `http://127.0.0.1:5232/alice/`,
/// its calendars, their resources, etags and sync tokens (RFC 6578), and plays the habits real
/// servers were seen to have (`Habit`, from ../shared/SYNC.md) and the faults they can give
/// (`Fault`), each injected by the simulation for one request. A phone changes its data directly
/// (`put`, `delete`, `deleteCalendar`), as another client's request would.
public final class SimulatedCalDAVServer: HTTPTransport, @unchecked Sendable {
    /// What a real server does that a careful client must survive.
    public enum Habit: String, CaseIterable, Sendable {
        /// Radicale and Xandikos: conditional writes are ordered; a UID may sit in two calendars.
        case radicale
        /// Cyrus (Fastmail): a UID lives in one calendar of an account; a PUT of one another
        /// calendar holds is 403 `unique-scheduling-object-resource` naming where it is.
        case cyrus
        /// DAViCal and SOGo: a write with the version the resource had just before (two PUTs of
        /// one `If-Match` at the same moment) is taken, not refused with 412.
        case davical
    }

    /// One request's fault, injected by the simulation.
    public enum Fault: Equatable, Sendable {
        /// 503 Service Unavailable, nothing done.
        case unavailable
        /// No answer in time; nothing done.
        case timedOut
        /// Done, but the answer never arrives (a connection cut after the server acted).
        case doneButCut
        /// A write done, answered without its ETag.
        case noETag
        /// A write over a version (`If-Match`) done, and then another client's write over the
        /// same version, as a phone's at the same moment: the server takes it too where it takes
        /// racing writes (`Habit.davical`), else refuses it (412, the phone's to handle). The
        /// other client adds a `DESCRIPTION` to the version it had (`racedWrites`). Scheduled for
        /// a request, it waits for the first such write from there on.
        case racedByAnotherWriter
    }

    /// A write another client made at the moment todo wrote (`Fault.racedByAnotherWriter`) and
    /// the server took after todo's: what todo sent and what the other client added.
    public struct RacedWrite: Sendable {
        public var uid: String
        public var sentSummary: String
        public var sentStatus: String?
        public var description: String
    }
    /// The racing writes the server took, in order.
    public var racedWrites: [RacedWrite] = []
    /// One request at a time, as the server's own lock would have it: setup sends two at once.
    private let lock = NSLock()

    public struct Resource: Equatable, Sendable {
        public var text: String
        public var etag: String
        public var uid: String?
    }

    public struct Calendar: Sendable {
        public var displayName: String
        public var resources: [String: Resource] = [:]
        /// Every change in order, by the token it made: the resource's name, and whether deleted.
        public var changes: [(token: Int, name: String)] = []
        /// The token the calendar's first listing was made at: older ones are forgotten.
        public var firstToken = 0
        /// The etag each resource had before its last write (for `Habit.davical`).
        public var previousETags: [String: String] = [:]
    }

    public let root = WebAddress(string: "http://127.0.0.1:5232/")!
    public var home: WebAddress { root.appendingPathComponent("alice/") }
    /// Where the server says alice's calendar home is, when not `/alice/` on itself (a server
    /// naming another origin, over plain HTTP, for the password to be sent to).
    public var namedHome: String?
    public let habit: Habit
    /// The calendars by their path segment.
    public private(set) var calendars: [String: Calendar] = [:]
    /// A fault for the request of this index (counted in `requests`), taken by it.
    public var scheduledFault: (index: Int, fault: Fault)?

    /// Gives the request after `count` more requests this fault.
    public func fault(_ fault: Fault, afterRequests count: Int) {
        scheduledFault = (requests.count + count, fault)
    }
    /// Requests answered, for counting (a no-change sync is one REPORT).
    public private(set) var requests: [HTTPRequest] = []
    private var counter = 0
    /// Where each UID is, by calendar and name: a PUT checks its UID without reading every resource.
    private var places: [String: Set<String>] = [:]

    public init(habit: Habit = .radicale) {
        self.habit = habit
        calendars["tasks"] = Calendar(displayName: "Tasks")
    }

    /// The address of the calendar at `slug`.
    public func calendarURL(_ slug: String) -> WebAddress { home.appendingPathComponent(slug + "/") }

    // MARK: What another client does

    /// Makes a calendar; `false` when one is there.
    @discardableResult
    public func makeCalendar(_ slug: String, displayName: String) -> Bool {
        guard calendars[slug] == nil else { return false }
        counter += 1
        calendars[slug] = Calendar(displayName: displayName, firstToken: counter)
        return true
    }

    /// Deletes a whole calendar (a phone's DELETE of the collection).
    public func deleteCalendar(_ slug: String) {
        for resource in calendars[slug]?.resources ?? [:] { forget(resource.value.uid, at: slug, resource.key) }
        calendars[slug] = nil
    }

    private func forget(_ uid: String?, at slug: String, _ name: String) {
        guard let uid else { return }
        places[uid]?.remove(slug + "/" + name)
        if places[uid]?.isEmpty == true { places[uid] = nil }
    }

    /// Stores `text` at `name` in the calendar `slug`, as another client's unconditional PUT.
    public func put(_ text: String, named name: String, in slug: String) {
        guard calendars[slug] != nil else { return }
        store(text, named: name, in: slug)
    }

    /// Deletes a resource, as another client's DELETE.
    public func delete(named name: String, in slug: String) {
        guard let old = calendars[slug]?.resources[name] else { return }
        counter += 1
        forget(old.uid, at: slug, name)
        calendars[slug]?.resources[name] = nil
        calendars[slug]?.changes.append((counter, name))
    }

    /// Every resource of every calendar: its calendar's slug, its name, and the resource.
    public var everything: [(slug: String, name: String, resource: Resource)] {
        calendars.sorted { $0.key < $1.key }.flatMap { slug, calendar in
            calendar.resources.sorted { $0.key < $1.key }.map { (slug, $0.key, $0.value) }
        }
    }

    private func store(_ text: String, named name: String, in slug: String) {
        counter += 1
        if let old = calendars[slug]?.resources[name] {
            calendars[slug]?.previousETags[name] = old.etag
            forget(old.uid, at: slug, name)
        }
        let uid = Self.uid(of: text)
        if let uid { places[uid, default: []].insert(slug + "/" + name) }
        calendars[slug]?.resources[name] = Resource(text: text, etag: "\"e\(counter)\"", uid: uid)
        calendars[slug]?.changes.append((counter, name))
    }

    /// The UID of a calendar text's first component that has one, unfolded.
    public static func uid(of text: String) -> String? {
        ICalendarLines.values(of: "UID", in: text).first
    }

    // MARK: Answering todo

    public func send(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        lock.lock()
        defer { lock.unlock() }
        var fault = scheduledFault.flatMap { $0.index == requests.count ? $0.fault : nil }
        // A race waits for a write over a version: the first such from its request on.
        if let (index, scheduled) = scheduledFault, scheduled == .racedByAnotherWriter, index <= requests.count {
            let racing = request.method == "PUT" && request.headers["If-Match"] != nil
            fault = racing ? scheduled : nil
            scheduledFault = racing ? nil : (requests.count + 1, scheduled)
        }
        requests.append(request)
        switch fault {
        case .unavailable?: return HTTPResponse(status: 503, body: Array("busy".utf8))
        case .timedOut?: throw .timedOut(seconds: request.timeout)
        default: break
        }
        guard request.credentials == HTTPCredentials(user: "alice", password: "secret") else {
            return HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Basic realm=\"sim\""], body: [])
        }
        guard request.url.host == root.host, request.url.port == root.port else {
            throw .failed("could not connect to \(request.url.host ?? "")")
        }
        let before = fault == .racedByAnotherWriter ? resource(at: request) : nil
        var answer = answer(request)
        if fault == .doneButCut { throw .failed("connection reset by peer") }
        if fault == .noETag, request.method == "PUT" { answer.headers["etag"] = nil }
        if let before, request.method == "PUT", request.headers["If-Match"] != nil, answer.status == 204 {
            race(over: before, of: request)
        }
        return answer
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.url.path.removingPercentEncoding ?? request.url.path
        let parts = path.split(separator: "/").map(String.init)
        let body = String(decoding: request.body ?? [], as: UTF8.self)
        switch (request.method, parts.count) {
        case ("PROPFIND", 0):
            return multistatus([
                response(path, props: "<d:current-user-principal><d:href>/alice/</d:href></d:current-user-principal>")
            ])
        case ("PROPFIND", 2) where parts[0] == ".well-known":
            return multistatus([
                response(path, props: "<d:current-user-principal><d:href>/alice/</d:href></d:current-user-principal>")
            ])
        case ("PROPFIND", 1) where parts[0] == "alice":
            var responses = [
                response(
                    "/alice/",
                    props: "<d:resourcetype><d:collection/></d:resourcetype>"
                        + "<d:current-user-principal><d:href>/alice/</d:href></d:current-user-principal>"
                        + "<c:calendar-home-set><d:href>\(namedHome ?? "/alice/")</d:href></c:calendar-home-set>")
            ]
            if request.headers["Depth"] == "1" {
                for (slug, calendar) in calendars.sorted(by: { $0.key < $1.key }) {
                    responses.append(calendarResponse(slug, calendar))
                }
            }
            return multistatus(responses)
        case ("PROPFIND", 2) where parts[0] == "alice":
            guard let calendar = calendars[parts[1]] else { return HTTPResponse(status: 404, body: []) }
            return multistatus([calendarResponse(parts[1], calendar)])
        case ("MKCALENDAR", 2) where parts[0] == "alice":
            guard calendars[parts[1]] == nil else { return HTTPResponse(status: 405, body: []) }
            let name = Self.between("displayname>", "</", in: body).map(Self.unescaped) ?? parts[1]
            makeCalendar(parts[1], displayName: name)
            return HTTPResponse(status: 201, body: [])
        case ("REPORT", 2) where parts[0] == "alice":
            guard calendars[parts[1]] != nil else { return HTTPResponse(status: 404, body: []) }
            return report(body, calendar: parts[1])
        case ("PUT", 3) where parts[0] == "alice":
            return put(request, body: body, slug: parts[1], name: parts[2])
        case ("DELETE", 3) where parts[0] == "alice":
            guard let calendar = calendars[parts[1]] else { return HTTPResponse(status: 404, body: []) }
            guard let existing = calendar.resources[parts[2]] else { return HTTPResponse(status: 404, body: []) }
            if let wanted = request.headers["If-Match"], wanted != existing.etag {
                return HTTPResponse(status: 412, body: [])
            }
            delete(named: parts[2], in: parts[1])
            return HTTPResponse(status: 204, body: [])
        case ("GET", 3) where parts[0] == "alice":
            guard let resource = calendars[parts[1]]?.resources[parts[2]] else {
                return HTTPResponse(status: 404, body: [])
            }
            return HTTPResponse(status: 200, headers: ["ETag": resource.etag], body: Array(resource.text.utf8))
        default:
            return HTTPResponse(status: 404, body: [])
        }
    }

    /// The resource a request names, and where.
    private func resource(at request: HTTPRequest) -> (slug: String, name: String, resource: Resource)? {
        let path = request.url.path.removingPercentEncoding ?? request.url.path
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count == 3, let resource = calendars[parts[1]]?.resources[parts[2]] else { return nil }
        return (parts[1], parts[2], resource)
    }

    /// Another client's write over the version `before` that `request` just replaced: taken by a
    /// server that takes racing writes, refused by any other.
    private func race(over before: (slug: String, name: String, resource: Resource), of request: HTTPRequest) {
        guard habit == .davical, let uid = before.resource.uid else { return }
        counter += 1
        let description = "raced \(counter)"
        store(
            ICalendarLines.replacing(["DESCRIPTION"], with: ["DESCRIPTION:" + description], in: before.resource.text),
            named: before.name, in: before.slug)
        let sent = String(decoding: request.body ?? [], as: UTF8.self)
        racedWrites.append(
            RacedWrite(
                uid: uid, sentSummary: ICalendarLines.values(of: "SUMMARY", in: sent).first ?? "",
                sentStatus: ICalendarLines.values(of: "STATUS", in: sent).first, description: description))
    }

    private func put(_ request: HTTPRequest, body: String, slug: String, name: String) -> HTTPResponse {
        guard let calendar = calendars[slug] else { return HTTPResponse(status: 409, body: []) }
        let existing = calendar.resources[name]
        if request.headers["If-None-Match"] == "*", existing != nil { return HTTPResponse(status: 412, body: []) }
        if let wanted = request.headers["If-Match"] {
            // DAViCal and SOGo take a write of the version just replaced: two writers at one moment.
            let racing = habit == .davical && calendar.previousETags[name] == wanted
            guard let existing, existing.etag == wanted || racing else { return HTTPResponse(status: 412, body: []) }
        }
        guard let uid = Self.uid(of: body) else { return HTTPResponse(status: 400, body: Array("no UID".utf8)) }
        for place in (places[uid] ?? []).sorted() where place != slug + "/" + name {
            let parts = place.split(separator: "/", maxSplits: 1).map(String.init)
            let (otherSlug, otherName) = (parts[0], parts[1])
            if otherSlug == slug {
                return error(
                    409, "<c:no-uid-conflict><d:href>/alice/\(otherSlug)/\(otherName)</d:href></c:no-uid-conflict>")
            }
            if habit == .cyrus {
                return error(
                    403,
                    "<c:unique-scheduling-object-resource><d:href>/alice/\(otherSlug)/\(otherName)</d:href></c:unique-scheduling-object-resource>"
                )
            }
        }
        store(body, named: name, in: slug)
        return HTTPResponse(
            status: existing == nil ? 201 : 204, headers: ["ETag": calendars[slug]!.resources[name]!.etag], body: [])
    }

    private func report(_ body: String, calendar slug: String) -> HTTPResponse {
        let calendar = calendars[slug]!
        let base = "/alice/\(slug)/"
        if body.contains("sync-collection") {
            let given = Self.between("<d:sync-token>", "</d:sync-token>", in: body) ?? ""
            var since = calendar.firstToken - 1
            if !given.isEmpty {
                guard let number = Int(given.replacingOccurrences(of: "http://sim/token/", with: "")),
                    number >= calendar.firstToken
                else {
                    return error(403, "<d:valid-sync-token/>")
                }
                since = number
            }
            var latest: [String: Bool] = [:]
            for change in calendar.changes where change.token > since {
                latest[change.name] = calendar.resources[change.name] != nil
            }
            var responses: [String] = []
            for (name, present) in latest.sorted(by: { $0.key < $1.key }) {
                if present, let resource = calendar.resources[name] {
                    responses.append(response(base + name, props: "<d:getetag>\(resource.etag)</d:getetag>"))
                } else if !given.isEmpty {
                    responses.append(
                        "<d:response><d:href>\(base + name)</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>"
                    )
                }
            }
            let token = max(calendar.changes.last?.token ?? calendar.firstToken, calendar.firstToken)
            return multistatus(responses, token: "http://sim/token/\(token)")
        }
        if body.contains("calendar-multiget") {
            var responses: [String] = []
            var rest = Substring(body)
            while let start = rest.range(of: "<d:href>"),
                let end = rest.range(of: "</d:href>", range: start.upperBound..<rest.endIndex)
            {
                let href = Self.unescaped(String(rest[start.upperBound..<end.lowerBound]))
                rest = rest[end.upperBound...]
                let name = (href.removingPercentEncoding ?? href).split(separator: "/").last.map(String.init) ?? ""
                if let resource = calendar.resources[name] {
                    responses.append(
                        response(
                            href,
                            props:
                                "<d:getetag>\(resource.etag)</d:getetag><c:calendar-data>\(Self.escaped(resource.text))</c:calendar-data>"
                        ))
                } else {
                    responses.append(
                        "<d:response><d:href>\(href)</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>")
                }
            }
            return multistatus(responses)
        }
        // calendar-query for VTODOs: every task with its etag, or those of one UID.
        let uid =
            body.contains("name=\"UID\"")
            ? Self.between("collation=\"i;octet\">", "</", in: body).map(Self.unescaped) : nil
        let responses = calendar.resources.sorted { $0.key < $1.key }
            .filter { $0.value.text.contains("BEGIN:VTODO") && (uid == nil || $0.value.uid == uid) }
            .map { response(base + $0.key, props: "<d:getetag>\($0.value.etag)</d:getetag>") }
        return multistatus(responses)
    }

    private func calendarResponse(_ slug: String, _ calendar: Calendar) -> String {
        response(
            "/alice/\(slug)/",
            props: "<d:resourcetype><d:collection/><c:calendar/></d:resourcetype>"
                + "<d:displayname>\(Self.escaped(calendar.displayName))</d:displayname>"
                + #"<c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set>"#)
    }

    private func response(_ href: String, props: String) -> String {
        "<d:response><d:href>\(Self.escaped(href))</d:href><d:propstat><d:prop>\(props)</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
    }

    private func multistatus(_ responses: [String], token: String? = nil) -> HTTPResponse {
        let text =
            #"<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
            + responses.joined() + (token.map { "<d:sync-token>\($0)</d:sync-token>" } ?? "") + "</d:multistatus>"
        return HTTPResponse(status: 207, headers: ["Content-Type": "application/xml"], body: Array(text.utf8))
    }

    private func error(_ status: Int, _ condition: String) -> HTTPResponse {
        let text =
            #"<?xml version="1.0" encoding="utf-8"?><d:error xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
            + condition + "</d:error>"
        return HTTPResponse(status: status, headers: ["Content-Type": "application/xml"], body: Array(text.utf8))
    }

    static func between(_ start: String, _ end: String, in text: String) -> String? {
        guard let from = text.range(of: start), let to = text.range(of: end, range: from.upperBound..<text.endIndex)
        else { return nil }
        return String(text[from.upperBound..<to.lowerBound])
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// Reading and changing a calendar text's content lines as a phone app does, without a full parser.
public enum ICalendarLines {
    /// The text's lines, unfolded (RFC 5545 3.1).
    public static func unfolded(_ text: String) -> [String] {
        var lines: [String] = []
        for raw in text.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: true)
        {
            if let first = raw.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += raw.dropFirst()
            } else {
                lines.append(String(raw))
            }
        }
        return lines
    }

    /// The values of every line named `name` (parameters dropped), in order.
    public static func values(of name: String, in text: String) -> [String] {
        unfolded(text).compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let head = line[..<colon]
            let property = head.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            return property.uppercased() == name ? String(line[line.index(after: colon)...]) : nil
        }
    }

    /// The text with the VTODO's lines named in `names` dropped and `added` put before its end.
    public static func replacing(_ names: Set<String>, with added: [String], in text: String) -> String {
        var lines: [String] = [], inTodo = false, depth = 0
        for line in unfolded(text) {
            let upper = line.uppercased()
            if upper == "BEGIN:VTODO" { inTodo = true; depth = 0 }
            if inTodo, upper.hasPrefix("BEGIN:"), upper != "BEGIN:VTODO" { depth += 1 }
            if inTodo, upper.hasPrefix("END:"), upper != "END:VTODO" { depth -= 1 }
            if inTodo, upper == "END:VTODO" {
                lines += added
                inTodo = false
            }
            let property = upper.split(whereSeparator: { $0 == ":" || $0 == ";" }).first.map(String.init) ?? ""
            if inTodo, depth == 0, names.contains(property) { continue }
            lines.append(line)
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}
