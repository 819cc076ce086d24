import Dispatch
import ToDoModel
import ToDoStorage

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

    /// The address the user gave (at setup) or the account's calendar (at a sync): over plain
    /// HTTP, credentials go to its origin only, and from an HTTPS one to no plain HTTP address.
    public let origin: WebAddress?

    public init(
        transport: any HTTPTransport, credentials: HTTPCredentials?, origin: WebAddress? = nil, timeout: Double = 60,
        maximumBodyBytes: Int = 256 << 20
    ) {
        self.transport = transport
        self.credentials = credentials
        self.origin = origin
        self.timeout = timeout
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Whether the password may travel to `url`: over HTTPS, yes; over plain HTTP, only to the
    /// origin typed at setup (`origin`; setup itself allows plain HTTP only to this machine, or
    /// with `--allow-http`), and never when that origin is HTTPS (no downgrade). A calendar home
    /// or a calendar a server names on another origin over plain HTTP is refused, named.
    public func mayCarryCredentials(to url: WebAddress) -> Bool {
        guard url.scheme.lowercased() == "http", let origin else { return true }
        return origin.scheme.lowercased() == "http" && origin.hasSameOrigin(as: url)
    }

    /// A calendar collection.
    public struct Calendar: Equatable, Sendable {
        public var url: WebAddress
        public var displayName: String?
        /// The components it takes (`VTODO`, `VEVENT`…); empty when the server does not say,
        /// which RFC 4791 reads as any.
        public var components: [String]

        public var holdsTasks: Bool { components.isEmpty || components.contains("VTODO") }

        public init(url: WebAddress, displayName: String?, components: [String]) {
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
    public func calendars(at url: WebAddress) throws(CalDAVError) -> (home: WebAddress?, calendars: [Calendar]) {
        let dav = DAVNamespace.dav, calDAV = DAVNamespace.calDAV
        let asked = try properties(
            of: url, depth: 0,
            [
                "<d:resourcetype/>", "<d:displayname/>", "<c:supported-calendar-component-set/>",
                "<d:current-user-principal/>", "<c:calendar-home-set/>"
            ])
        if let own = asked.responses.first, own.property(dav, "resourcetype")?.child(calDAV, "calendar") != nil {
            return (nil, [Self.calendar(own, base: url)])
        }
        var home = asked.responses.first?.property(calDAV, "calendar-home-set").flatMap { hrefURL($0, base: url) }
        if home == nil {
            var principal = asked.responses.first?.property(dav, "current-user-principal").flatMap {
                hrefURL($0, base: url)
            }
            if principal == nil {
                // A server's root may not say who asks; its well-known address does (RFC 6764).
                let wellKnown = try properties(
                    of: url.appendingPathComponent(".well-known/caldav"), depth: 0, ["<d:current-user-principal/>"])
                principal = wellKnown.responses.first?.property(dav, "current-user-principal").flatMap {
                    hrefURL($0, base: url)
                }
            }
            guard let principal else {
                throw .notCalDAV("\(url.absoluteString) names no calendar and no user's calendars")
            }
            let found = try properties(of: principal, depth: 0, ["<c:calendar-home-set/>"])
            home = found.responses.first?.property(calDAV, "calendar-home-set").flatMap { hrefURL($0, base: principal) }
        }
        guard let home else { throw .notCalDAV("the server names no calendar home for this user") }
        let listed = try properties(
            of: home, depth: 1, ["<d:resourcetype/>", "<d:displayname/>", "<c:supported-calendar-component-set/>"])
        let calendars = listed.responses.filter { $0.property(dav, "resourcetype")?.child(calDAV, "calendar") != nil }
            .map { Self.calendar($0, base: home) }
        return (home, calendars)
    }

    /// Makes a calendar for tasks only, named `name`, in `home` (MKCALENDAR); its address is the
    /// home's with a name made of `slug`.
    public func makeCalendar(named name: String, slug: String, in home: WebAddress) throws(CalDAVError) -> Calendar {
        let url = home.appendingPathComponent(slug, isDirectory: true)
        let body =
            #"<?xml version="1.0" encoding="utf-8"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
            + "<d:set><d:prop><d:displayname>\(Self.escaped(name))</d:displayname>"
            + #"<c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set>"#
            + "</d:prop></d:set></c:mkcalendar>"
        let answer = try send("MKCALENDAR", url, body: body)
        guard answer.isSuccess else { throw unexpected(answer, "making the calendar \(name)") }
        return Calendar(url: url, displayName: name, components: ["VTODO"])
    }

    // MARK: A calendar's tasks

    /// Every task of the calendar with its etag: a `calendar-query` for VTODO components, so that
    /// a mixed calendar's events are left out. Hrefs outside the calendar are `outside`, never followed.
    public func tasks(in calendar: WebAddress) throws(CalDAVError) -> Listing {
        let body =
            #"<?xml version="1.0" encoding="utf-8"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
            + #"<d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter>"#
            + "</c:calendar-query>"
        let (answer, location) = try multistatusAndLocation(
            "REPORT", calendar, depth: 1, body: body, "listing the calendar's tasks")
        var listing = Listing(location: location)
        let scope = CalendarScope(location)
        for response in answer.responses where response.status == nil {
            switch scope.place(of: response.href) {
            case .member(let href):
                listing.resources.append(Resource(href: href, etag: response.text(DAVNamespace.dav, "getetag")))
            case .outside(let href): listing.outside.append(href)
            case .calendar: break
            }
        }
        return listing
    }

    /// Whether the calendar holds a task of this UID: a `calendar-query` whose VTODO filter matches
    /// the UID exactly (RFC 4791 9.7.5, `i;octet`), asked only for a task that left this
    /// machine's calendars while it was changed here (`SyncRun`).
    public func holdsTask(uid: String, in calendar: WebAddress) throws(CalDAVError) -> Bool {
        let body =
            #"<?xml version="1.0" encoding="utf-8"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
            + #"<d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO">"#
            + #"<c:prop-filter name="UID"><c:text-match collation="i;octet">"# + Self.escaped(uid)
            + "</c:text-match></c:prop-filter>"
            + "</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>"
        let (answer, location) = try multistatusAndLocation(
            "REPORT", calendar, depth: 1, body: body, "looking for a task in another calendar")
        let scope = CalendarScope(location)
        return answer.responses.contains { response in
            if response.status == nil, case .member = scope.place(of: response.href) { return true }
            return false
        }
    }

    /// Resources listed by the server: those inside the calendar, and the hrefs it listed that
    /// are not (on another server or in another collection), which todo leaves alone.
    public struct Listing: Equatable, Sendable {
        /// Where the calendar answered from: its own address, or where a redirect led (a moved
        /// calendar), which its hrefs are inside.
        public var location: WebAddress
        public var resources: [Resource] = []
        public var outside: [String] = []
    }

    /// Where an href a server gave leads.
    enum Place: Equatable {
        /// A resource inside the calendar, by its href as todo keeps it.
        case member(String)
        /// The calendar itself.
        case calendar
        /// Anywhere else, as the server wrote it.
        case outside(String)
    }

    /// What changed in the calendar since `token` (RFC 6578): resources changed or added, with
    /// their etags; those deleted; and the token to ask with next time. `nil` when the server
    /// refuses the token (it forgot it) or has no such report, whichever status says so: list
    /// `tasks(in:)` then.
    /// With no token, every resource of the calendar counts as changed (events too: a sync
    /// report cannot filter). An answer the server cut short (a 507 for the calendar itself, as
    /// Nextcloud gives past its limit) is continued from the token it gave, until one is whole.
    public func changes(in calendar: WebAddress, since token: String?) throws(CalDAVError) -> Changes? {
        /// Each href's latest news, in the order first heard of.
        enum News { case changed(etag: String?), deleted }
        var news: [String: News] = [:], order: [String] = [], outside: [String] = []
        var current = token
        var location = calendar
        for _ in 0..<Self.longestChangeListing {
            let body =
                #"<?xml version="1.0" encoding="utf-8"?><d:sync-collection xmlns:d="DAV:">"#
                + "<d:sync-token>\(Self.escaped(current ?? ""))</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>"
            // RFC 6578 3.2: Depth 0 (the sync-level says how deep); strict servers refuse others with 400.
            let answer = try send("REPORT", calendar, depth: 0, body: body)
            // A forgotten token (403, 412; 400 from some), or no such report (400, 403, 405, 415, 501).
            if [400, 403, 405, 412, 415, 501].contains(answer.status) { return nil }
            guard answer.status == 207 else { throw unexpected(answer, "asking what changed") }
            location = Self.location(of: answer, asked: calendar)
            let scope = CalendarScope(location)
            let parsed: DAVMultistatus
            do { parsed = try DAVMultistatus(parsing: answer.body) } catch {
                throw .unreadable("the list of changes", error.description)
            }
            guard let next = parsed.syncToken else { return nil }
            var truncated = false
            for response in parsed.responses {
                let href: String
                switch scope.place(of: response.href) {
                case .member(let member): href = member
                case .calendar:
                    truncated = truncated || response.status == 507
                    continue
                case .outside(let raw):
                    outside.append(raw)
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
                if truncated {
                    throw .unreadable("the list of changes", "the server cut it short and gave no token to go on from")
                }
                var changed: [Resource] = [], deleted: [String] = []
                for href in order {
                    switch news[href] {
                    case .changed(let etag)?: changed.append(Resource(href: href, etag: etag))
                    case .deleted?: deleted.append(href)
                    case nil: break
                    }
                }
                return Changes(location: location, changed: changed, deleted: deleted, outside: outside, token: next)
            }
            current = next
        }
        throw .unreadable("the list of changes", "still cut short after \(Self.longestChangeListing) answers")
    }

    /// What a calendar reports changed since a token: resources changed or added, with their
    /// etags; hrefs deleted; hrefs listed outside the calendar (left alone); the next token.
    public struct Changes: Equatable, Sendable {
        /// Where the calendar answered from (see `Listing.location`).
        public var location: WebAddress
        public var changed: [Resource]
        public var deleted: [String]
        public var outside: [String]
        public var token: String
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
    /// A resource not given whose href holds a reserved character as itself is asked for once
    /// more with those characters escaped, and given under the href asked for: SOGo lists
    /// `a&b+c.ics` raw, then answers a multiget of it with a 404 for `a`, cut at the `&`.
    public func fetch(
        _ hrefs: [String], from calendar: WebAddress, batch: Int = 100
    ) throws(CalDAVError) -> (found: [Fetched], gone: [String]) {
        var (found, gone) = try fetchAsSpelled(hrefs, from: calendar, batch: batch)
        // Only what was asked for is gone (not SOGo's `a`).
        let asked = Set(hrefs.map(Self.looseHref)), given = Set(found.map { Self.looseHref($0.href) })
        gone.removeAll { !asked.contains(Self.looseHref($0)) }
        let notGiven = hrefs.filter { !given.contains(Self.looseHref($0)) }
        let escaped = notGiven.compactMap { href in Self.withReservedEscaped(href).map { (escaped: $0, asked: href) } }
        guard !escaped.isEmpty else { return (found, gone) }
        let again = try fetchAsSpelled(escaped.map(\.escaped), from: calendar, batch: batch)
        // The answer may spell it either way.
        let askedEscaped = Dictionary(
            escaped.map { (Self.looseHref($0.escaped), $0.asked) }, uniquingKeysWith: { first, _ in first })
        var recovered: Set<String> = []
        for var resource in again.found {
            guard let asked = askedEscaped[Self.looseHref(resource.href)] else { continue }
            recovered.insert(asked)
            resource.href = asked
            found.append(resource)
        }
        gone.removeAll { recovered.contains($0) }
        return (found, gone)
    }

    /// `href` with the reserved characters of its last segment that stand as themselves escaped;
    /// `nil` when it has none.
    static func withReservedEscaped(_ href: String) -> String? {
        let reserved = "!$&'()*+,;=:@".unicodeScalars
        guard let slash = href.lastIndex(of: "/") else { return nil }
        let segment = href[href.index(after: slash)...]
        guard segment.unicodeScalars.contains(where: reserved.contains) else { return nil }
        return String(href[...slash]) + PercentEncoding.encoded(String(segment), where: reserved.contains)
    }

    private func fetchAsSpelled(
        _ hrefs: [String], from calendar: WebAddress, batch: Int
    ) throws(CalDAVError) -> (found: [Fetched], gone: [String]) {
        var fetched: [Fetched] = [], gone: [String] = []
        let scope = CalendarScope(calendar)
        var start = 0
        while start < hrefs.count {
            let part = hrefs[start..<min(start + batch, hrefs.count)]
            start += batch
            let body =
                #"<?xml version="1.0" encoding="utf-8"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
                + "<d:prop><d:getetag/><c:calendar-data/></d:prop>"
                + part.map { "<d:href>\(Self.escaped($0))</d:href>" }.joined()
                + "</c:calendar-multiget>"
            let answer = try multistatus("REPORT", calendar, depth: 1, body: body, "fetching tasks")
            for response in answer.responses {
                // Only what was asked for: an answer about anything else is left out.
                guard let href = scope.member(response.href) else { continue }
                if response.status == 404 { gone.append(href) }
                guard response.status == nil, let data = response.property(DAVNamespace.calDAV, "calendar-data")?.text
                else { continue }
                fetched.append(Fetched(href: href, etag: response.text(DAVNamespace.dav, "getetag"), text: data))
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
        /// The server refused this one write (a 4xx, or a 5xx), saying why (`Refusal`); the rest of
        /// a sync goes on, and the next sync tries it again.
        case refused(Refusal)
    }

    /// A write the server refused, and why as it said.
    public struct Refusal: Equatable, Sendable, CustomStringConvertible {
        public var status: Int
        /// The precondition or postcondition the server named (RFC 4918 16: the element in its
        /// `DAV:error` body), as `unique-scheduling-object-resource`.
        public var condition: String?
        /// The href the condition names, if any (Cyrus names the resource that already holds the UID).
        public var href: String?

        /// What the server said in words, when it did (SabreDAV's `s:message`).
        public var message: String?
        /// The calendar holding what `href` names, on the server written to, when it names one.
        public var holdingCalendar: WebAddress?

        /// Reads a refusal's body: a `DAV:error` element naming the condition (servers put their
        /// own elements beside it: SabreDAV's exception and message), or anything else (an HTML
        /// page), which says nothing todo uses.
        init(status: Int, body: [UInt8]) {
            self.status = status
            guard !body.isEmpty, body.count <= 1 << 16, let root = try? XMLReader.parse(body),
                root.namespace == DAVNamespace.dav, root.name == "error"
            else { return }
            message = root.children.first { $0.name == "message" && $0.namespace == "http://sabredav.org/ns" }
                .map {
                    String(
                        $0.text.split(whereSeparator: \.isNewline).map(Whitespace.trimmingSpacesAndNewlines).joined(
                            separator: " "
                        ).prefix(200))
                }
            guard
                let condition = root.children.first(where: {
                    [DAVNamespace.dav, DAVNamespace.calDAV].contains($0.namespace)
                })
            else { return }
            self.condition = condition.name
            var pending = [condition]
            while let element = pending.popLast() {
                if element.namespace == DAVNamespace.dav, element.name == "href" {
                    href = Whitespace.trimmingSpacesAndNewlines(element.text)
                    break
                }
                pending += element.children
            }
        }

        /// A server error (5xx): on a write named by its version, often two writes at once that
        /// the server did not order (SOGo), so worth fetching and merging again.
        public var isServerError: Bool { (500...599).contains(status) }

        public var description: String {
            switch condition {
            case "unique-scheduling-object-resource"?, "no-uid-conflict"?:
                // Cyrus (and so Fastmail) keeps a UID in one calendar of an account.
                let setup =
                    holdingCalendar.map { "todo sync forget, then todo sync setup \($0.absoluteString)" }
                    ?? "todo sync setup --calendar"
                return "the server refused it (\(status) \(condition!)): a task with its UID is already"
                    + " \(href.map { "at \($0)" } ?? "elsewhere on the account"), and the server keeps a UID in one calendar;"
                    + " sync with that calendar (\(setup)), or remove the task there"
            case let condition?:
                return
                    "the server refused it (\(status) \(condition)\(href.map { " \($0)" } ?? "")\(message.map { ": \($0)" } ?? ""))"
            case nil:
                return "the server refused it (\(status)\(message.map { ": \($0)" } ?? ""))"
            }
        }
    }

    /// Stores `text` at `href`: a new resource (`If-None-Match: *`) when `etag` is `nil`, else
    /// only over the version with that etag (`If-Match`). Never overwrites a change it has not seen.
    public func put(
        _ text: String, at href: String, in calendar: WebAddress, replacing etag: String?
    ) throws(CalDAVError) -> WriteOutcome {
        let headers = (etag.map { ["If-Match": Self.quoted($0)] } ?? ["If-None-Match": "*"]).merging([
            "Content-Type": "text/calendar; charset=utf-8"
        ]) { $1 }
        let target = try resolve(href, calendar)
        var answer = try send("PUT", target, body: text, headers: headers)
        if answer.status == 404, etag != nil, let escaped = Self.withReservedEscaped(href) {
            // As for a fetch (SOGo): the same resource, its href escaped.
            answer = try send("PUT", try resolve(escaped, calendar), body: text, headers: headers)
        }
        if answer.status == 412 { return .changedMeanwhile }
        if answer.status >= 400 {
            var refusal = Refusal(status: answer.status, body: answer.body)
            // Where the server says the same UID already is: a calendar of this server's, said by its address.
            refusal.holdingCalendar = refusal.href.flatMap { WebAddress(string: $0, relativeTo: target) }.map {
                $0.deletingLastPathComponent()
            }
            .flatMap { $0.host == target.host && $0.port == target.port ? $0 : nil }
            return .refused(refusal)
        }
        guard answer.isSuccess else { throw unexpected(answer, "storing \(href)") }
        return .done(etag: answer.header("etag"), path: Self.pathAfterRedirect(answer, asSent: href, in: calendar))
    }

    /// Whether the calendar takes two writes made with one `If-Match` at the same moment, as
    /// DAViCal and SOGo do (../shared/SYNC.md: 25 and 19 of 30 tries), where a conditional write is
    /// then no lock: a probe task is made, written twice at once over its one version (up to
    /// `tries` times, as a race is won or lost by chance), and deleted. A server that gives no
    /// ETag cannot be asked, and is taken to order its writes (todo reads back a write answered
    /// without one anyway). Throws when the probe could not be made or deleted.
    public func takesRacingWrites(in calendar: WebAddress, uid: String, tries: Int = 3) throws(CalDAVError) -> Bool {
        let href = CalDAVClient.pathSegment(uid, replacement: "-") + ".ics"
        func probe(_ summary: String) -> String {
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//todo//sync setup probe//EN", "BEGIN:VTODO", "UID:" + uid,
                "DTSTAMP:19700101T000000Z",
                "SUMMARY:" + summary, "STATUS:CANCELLED", "END:VTODO", "END:VCALENDAR", ""
            ].joined(separator: "\r\n")
        }
        guard
            case .done(var etag, _) = try put(
                probe("todo sync setup: a probe, deleted at once"), at: href, in: calendar, replacing: nil)
        else {
            throw .notCalDAV("the server refused a task written to \(calendar.absoluteString)")
        }
        var racing = false
        for attempt in 0..<tries where !racing {
            // A server that answers a write without its ETag gives it to a GET (SabreDAV 1.8
            // answered a multiget of the probe 403).
            if etag == nil { etag = try send("GET", try resolve(href, calendar)).header("etag") }
            guard let version = etag else { break }
            let outcomes = Self.atOnce([probe("probe \(attempt) a"), probe("probe \(attempt) b")]) {
                text throws(CalDAVError) in
                try put(text, at: href, in: calendar, replacing: version)
            }
            racing = outcomes.allSatisfy { if case .success(.done) = $0 { true } else { false } }
            etag = nil
        }
        guard case .done = try delete(href, in: calendar, etag: nil) else {
            throw .notCalDAV("the server kept the probe task \(href) in \(calendar.absoluteString); delete it there")
        }
        return racing
    }

    /// `body` for each of `values` on threads of their own, all at once (a transport that sends
    /// one request at a time sends them in turn).
    private static func atOnce<Value: Sendable, Result: Sendable>(
        _ values: [Value], _ body: @escaping @Sendable (Value) throws(CalDAVError) -> Result
    )
        -> [Swift.Result<Result, CalDAVError>]
    {
        let boxes = values.map { _ in ResultBox<Swift.Result<Result, CalDAVError>>() }
        let group = DispatchGroup()
        for (value, box) in zip(values, boxes) {
            DispatchQueue.global().async(group: group) {
                box.value = Swift.Result { () throws(CalDAVError) in try body(value) }
            }
        }
        // Each box is written by its own thread before the group is left.
        group.wait()
        return boxes.compactMap(\.value)
    }

    /// Deletes `href` if it is still the version with `etag`; one already gone counts as deleted.
    public func delete(_ href: String, in calendar: WebAddress, etag: String?) throws(CalDAVError) -> WriteOutcome {
        let target = try resolve(href, calendar), headers = etag.map { ["If-Match": Self.quoted($0)] } ?? [:]
        var answer = try send("DELETE", target, headers: headers)
        if answer.status == 404, let escaped = Self.withReservedEscaped(href) {
            answer = try send("DELETE", try resolve(escaped, calendar), headers: headers)
        }
        if answer.status == 412 { return .changedMeanwhile }
        if answer.status >= 400, answer.status != 404 {
            return .refused(Refusal(status: answer.status, body: answer.body))
        }
        guard answer.isSuccess || answer.status == 404 else { throw unexpected(answer, "deleting \(href)") }
        return .done(etag: nil, path: Self.pathAfterRedirect(answer, asSent: href, in: calendar))
    }

    /// The href of a resource written, as the server named it after any redirect when that is
    /// inside the calendar; else as sent (a calendar moved elsewhere is reached by the redirect again).
    private static func pathAfterRedirect(
        _ answer: HTTPResponse, asSent href: String, in calendar: WebAddress
    ) -> String {
        answer.redirectedTo.flatMap { memberHref($0.absoluteString, of: calendar) } ?? memberHref(href, of: calendar)
            ?? canonicalHref(href)
    }

    // MARK: Requests

    private func send(
        _ method: String, _ url: WebAddress, depth: Int? = nil, body: String? = nil, headers: [String: String] = [:]
    ) throws(CalDAVError) -> HTTPResponse {
        var all = headers
        if let depth { all["Depth"] = String(depth) }
        // Xandikos answers 415 to a PROPFIND or REPORT without it.
        if body != nil, all["Content-Type"] == nil { all["Content-Type"] = "application/xml; charset=utf-8" }
        if credentials != nil, !mayCarryCredentials(to: url) {
            throw .insecureAddress(url.absoluteString, given: origin?.absoluteString ?? "")
        }
        let request = HTTPRequest(
            method: method, url: url, headers: all, body: body.map { Array($0.utf8) }, credentials: credentials,
            timeout: timeout, maximumBodyBytes: maximumBodyBytes)
        let answer: HTTPResponse
        do { answer = try transport.send(request) } catch { throw .unreachable(error) }
        if answer.status == 401 {
            // A server that takes only another scheme (Baïkal asks for Digest unless set to Basic)
            // refuses every password: said as such, not as a wrong password.
            let challenges = (answer.header("www-authenticate") ?? "").lowercased()
            if !challenges.isEmpty, !challenges.containsText("basic") {
                throw .schemeNotOffered(
                    challenges.split(whereSeparator: { $0 == " " || $0 == "," }).first.map(String.init) ?? challenges)
            }
            throw .credentialsRefused
        }
        return answer
    }

    private func properties(of url: WebAddress, depth: Int, _ names: [String]) throws(CalDAVError) -> DAVMultistatus {
        let body =
            #"<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop>"#
            + names.joined() + "</d:prop></d:propfind>"
        return try multistatus("PROPFIND", url, depth: depth, body: body, "asking \(url.absoluteString) what it is")
    }

    private func multistatus(
        _ method: String, _ url: WebAddress, depth: Int, body: String, _ what: String
    ) throws(CalDAVError) -> DAVMultistatus {
        try multistatusAndLocation(method, url, depth: depth, body: body, what).answer
    }

    /// A multistatus answer, and where it came from (`location(of:asked:)`).
    private func multistatusAndLocation(
        _ method: String, _ url: WebAddress, depth: Int, body: String,
        _ what: String
    ) throws(CalDAVError) -> (answer: DAVMultistatus, location: WebAddress) {
        let answer = try send(method, url, depth: depth, body: body)
        guard answer.status == 207 else { throw unexpected(answer, what) }
        do { return (try DAVMultistatus(parsing: answer.body), Self.location(of: answer, asked: url)) } catch {
            throw .unreadable(what, error.description)
        }
    }

    /// Where a collection asked at `url` answered from: where a redirect led, as a collection
    /// (ending in `/`), or `url` itself.
    private static func location(of answer: HTTPResponse, asked url: WebAddress) -> WebAddress {
        answer.redirectedTo.map(asCollection) ?? url
    }

    /// `url` as a collection's address: ending in `/`, as resources are resolved below it.
    public static func asCollection(_ url: WebAddress) -> WebAddress {
        url.absoluteString.hasSuffix("/") ? url : url.appendingPathComponent("")
    }

    private func unexpected(_ answer: HTTPResponse, _ what: String) -> CalDAVError {
        .unexpectedStatus(answer.status, while: what)
    }

    /// The URL of a resource of the calendar, from its href; an href that leads outside the
    /// calendar (`memberHref`) is never followed.
    func resolve(_ href: String, _ calendar: WebAddress) throws(CalDAVError) -> WebAddress {
        guard let member = Self.memberHref(href, of: calendar) else { throw .outsideCalendar(href) }
        return calendar.replacingPathAndQuery(with: member)
    }

    private func hrefURL(_ property: XMLElement, base: WebAddress) -> WebAddress? {
        property.child(DAVNamespace.dav, "href").flatMap {
            WebAddress(string: Whitespace.trimmingSpacesAndNewlines($0.text), relativeTo: base)
        }
    }

    private static func calendar(_ response: DAVMultistatus.Response, base: WebAddress) -> Calendar {
        let components =
            response.property(DAVNamespace.calDAV, "supported-calendar-component-set")?
            .children(DAVNamespace.calDAV, "comp").compactMap { $0.attributes["name"]?.uppercased() } ?? []
        let url = WebAddress(string: response.href, relativeTo: base) ?? base
        let name = response.text(DAVNamespace.dav, "displayname").flatMap { $0.isEmpty ? nil : $0 }
        return Calendar(url: url, displayName: name, components: components)
    }

    /// `text` as a segment of a resource's path on a server: ASCII letters and digits, and the
    /// characters of `kept`, as they are; every other character as `replacement`.
    public static func pathSegment(_ text: String, keeping kept: String = "", replacement: String) -> String {
        text.unicodeScalars.map { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || kept.unicodeScalars.contains(scalar))
                ? String(scalar) : replacement
        }.joined()
    }

    /// An etag as `If-Match` wants it: quoted (some servers give a bare one).
    static func quoted(_ etag: String) -> String {
        etag.hasPrefix("\"") || etag.hasPrefix("W/\"") ? etag : "\"\(etag)\""
    }

    /// Text for an XML element: `&`, `<` and `>` as references.
    static func escaped(_ text: String) -> String {
        text.replacingText("&", with: "&amp;").replacingText("<", with: "&lt;").replacingText(">", with: "&gt;")
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
    /// An href that leads outside the calendar (another server, another collection): never followed.
    case outsideCalendar(String)
    /// A request that would carry the password over plain HTTP to another origin than the one
    /// given at setup (or from an HTTPS one): not sent.
    case insecureAddress(String, given: String)
}

extension CalDAVError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unreachable(let error): return "the server could not be reached: \(error)"
        case .credentialsRefused: return "the server refused the user name and password (401)"
        case .schemeNotOffered(let scheme):
            return
                "the server takes only \(scheme.prefix(1).uppercased() + scheme.dropFirst().lowercased()) authentication (401), and todo signs in with Basic over HTTPS; "
                + "set the server to accept Basic (Baïkal: Admin, Settings, WebDAV authentication type)"
        case .unexpectedStatus(let status, let what): return "the server answered \(status) while \(what)"
        case .unreadable(let what, let why): return "the server's answer while \(what) is not readable: \(why)"
        case .notCalDAV(let why): return why
        case .outsideCalendar(let href): return "\(href) is not a resource of the calendar; todo sends nothing there"
        case .insecureAddress(let url, let given):
            return
                "the server names \(url), plain http on another server than \(given); todo sends the password over plain http only to the"
                + " address given at setup, and never from https to http: set up with that address, or have the server use https"
        }
    }
}

/// One result a thread of its own writes, read after the threads are done.
private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    var value: Value?
}
