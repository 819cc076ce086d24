import ToDoModel
import ToDoStorage

/// What `todo sync` keeps beside the list (the list's path with `.sync` added; only the owner
/// may read it): the account, the calendar, the server's sync token, and for each item what the
/// last sync left agreed (`SyncPlan.Record`). Never the password. Read only by `todo sync`, so
/// that other commands stay as fast as without it.
public struct SyncState: Equatable, Sendable {
    /// Where the list is kept in step.
    public struct Account: Equatable, Sendable {
        /// The calendar collection.
        public var calendar: WebAddress
        public var calendarName: String?
        public var user: String
        /// A command whose first line of output is the password (`pass show dav`), when setup
        /// was given one; otherwise the password comes from `TODO_SYNC_PASSWORD`.
        public var passwordCommand: String?
        /// Whether plain HTTP to a host that is not this machine was allowed (`--allow-http`).
        public var allowsHTTP: Bool
        /// The user's calendar home, where the calendars of the other lists are found or made;
        /// `nil` for a state an earlier todo wrote (then found from the calendar's address).
        public var home: WebAddress?
        /// Whether every calendar of the account that holds tasks is a list here, named as the
        /// calendar (`--all-lists`): a second machine takes the lists the first made.
        public var allLists = false
        /// Whether the server was seen at setup to take two writes made with one `If-Match` at
        /// the same moment (DAViCal, SOGo): each write is then read back, and one that another
        /// client's write replaced is merged with it by the next round (`SyncRun`).
        public var takesRacingWrites = false

        public init(
            calendar: WebAddress, calendarName: String?, user: String, passwordCommand: String?, allowsHTTP: Bool
        ) {
            self.calendar = calendar
            self.calendarName = calendarName
            self.user = user
            self.passwordCommand = passwordCommand
            self.allowsHTTP = allowsHTTP
        }
    }

    public var account: Account
    /// RFC 6578's token for the next sync-collection report; `nil` before the first sync, or
    /// when the server offers none.
    public var syncToken: String?
    /// When a sync last changed the list, the calendar or its records, in seconds since 1970.
    public var lastSync: Double?
    /// Whether the sync that wrote this state left the list and the calendar in step: nothing was
    /// left to send, and the calendar was as `syncToken` has it. While the list's file is still
    /// the one this state was written with (`listDigest`) and the calendar reports no change since
    /// the token, a sync has nothing to do, and reads nothing more.
    public var inStep = false
    /// The digest of the list's file (`FileSystem.digest(of:)`) when this state was written;
    /// the store sets it as it writes the state, under the list's lock.
    public var listDigest: UInt64?
    /// Resources the last sync left alone (text todo could not read, or not given when asked),
    /// by href: the next sync asks for them again, though its token has moved past them.
    public var askAgain: [String] = []
    /// What syncs deleted since the first deletion of the last `DeletionWindow.length` seconds.
    public var deletions: DeletionWindow?
    public var records: [SyncPlan.Record]
    /// The lists other than the default one and their calendars (the default list's is the
    /// account's), in the order they were linked.
    public var lists: [ListCalendar] = []
    /// The version the state was written in (`currentVersion` once written by this todo), which
    /// says how its base items' days were kept (`ItemForm`).
    var version = SyncState.currentVersion

    /// A list other than the default one, and where it is kept in step: a calendar of its own
    /// on the account, found by name (its own, or the one `todo sync setup --map` gave it) or
    /// made, with that calendar's token; or nowhere (`--local`).
    public struct ListCalendar: Equatable, Sendable {
        /// The list's name.
        public var list: String
        /// The calendar's name, when `--map` gave one; else the list's.
        public var calendarName: String?
        /// The calendar, once found or made; `nil` before, and for a list kept local.
        public var calendar: WebAddress?
        /// Whether the list stays on this machine.
        public var isLocal = false
        public var syncToken: String?
        public var inStep = false
        public var askAgain: [String] = []

        public init(list: String, calendarName: String? = nil, calendar: WebAddress? = nil, isLocal: Bool = false) {
            self.list = list
            self.calendarName = calendarName
            self.calendar = calendar
            self.isLocal = isLocal
        }

        /// The name of the calendar it is kept in.
        public var wantedCalendar: String { calendarName ?? list }

        var progress: CalendarProgress {
            get { CalendarProgress(syncToken: syncToken, inStep: inStep, askAgain: askAgain) }
            set { (syncToken, inStep, askAgain) = (newValue.syncToken, newValue.inStep, newValue.askAgain) }
        }
    }

    /// The entry of the list `name` (ignoring case), if it has one.
    public func listCalendar(_ name: String) -> ListCalendar? {
        lists.first { ListName.same($0.list, name) }
    }

    /// Where a sync stands with one calendar: its token, whether the list and the calendar were
    /// left in step at it, and what to ask for by href next time.
    public struct CalendarProgress: Equatable, Sendable {
        public var syncToken: String?
        public var inStep: Bool
        public var askAgain: [String]
    }

    /// The default list's calendar's progress: the state's own token, in-step mark and hrefs.
    var progress: CalendarProgress {
        get { CalendarProgress(syncToken: syncToken, inStep: inStep, askAgain: askAgain) }
        set { (syncToken, inStep, askAgain) = (newValue.syncToken, newValue.inStep, newValue.askAgain) }
    }

    /// The progress with the calendar of the list `name` (`nil`: the default list's); `nil` for
    /// a list without an entry, and setting one changes nothing.
    subscript(progressOf name: String?) -> CalendarProgress? {
        get { name.map { name in listCalendar(name)?.progress } ?? progress }
        set {
            guard let newValue else { return }
            guard let name else { return progress = newValue }
            guard let index = lists.firstIndex(where: { ListName.same($0.list, name) }) else { return }
            lists[index].progress = newValue
        }
    }

    /// Deletions counted over a day rather than one sync at a time: a calendar emptied a few
    /// items before each sync is refused once the day's deletions cross the limit a single sync
    /// has (`SyncPlan.isTooMany`).
    public struct DeletionWindow: Equatable, Sendable {
        /// A day, in seconds.
        public static let length = 86_400.0
        /// When the window's first deletion was made, in seconds since 1970.
        public var start: Double
        /// The most items each side held in the window (before its deletions).
        public var localCount: Int
        public var remoteCount: Int
        /// What syncs deleted on each side in the window.
        public var localDeleted = 0
        public var remoteDeleted = 0

        public init(start: Double, localCount: Int, remoteCount: Int) {
            self.start = start
            self.localCount = localCount
            self.remoteCount = remoteCount
        }
    }

    /// Version 2 keeps whole days as dates, as the list's own version 2 (`ItemForm`).
    public static let currentVersion = 2

    public init(account: Account, syncToken: String? = nil, lastSync: Double? = nil, records: [SyncPlan.Record] = []) {
        self.account = account
        self.syncToken = syncToken
        self.lastSync = lastSync
        self.records = records
    }

    /// The state as written in its file: the account and the token first, then one record per
    /// line, its base item in the list's own written form, so that it is read back as fast.
    public func serialized() -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + records.count * 400)
        write(to: &writer)
        writer.bytes.append(UInt8(ascii: "\n"))
        return writer.bytes
    }

    /// Reads the state file's bytes; `file` names it in errors.
    public init(bytes: [UInt8], file: String, timeZone: TimeZoneRules = .utc) throws(StoreError) {
        try self.init(text: StoredText(bytes), file: file, timeZone: timeZone)
    }

    /// Reads the state from a text its base items are read from as the list's items are
    /// (`JSONForm.item`). Base items of the first form are read as the days they show in `timeZone`.
    init(text: StoredText, file: String, timeZone: TimeZoneRules) throws(StoreError) {
        do {
            self = try text.scanDocument { scanner throws(JSONDecodingError) in
                try Self(scanning: &scanner, path: { "" })
            }
        } catch {
            throw .unreadable(file, error, currentVersion: Self.currentVersion)
        }
        let form = ItemForm(version: version)
        let local = CivilTime(rules: timeZone)
        for index in records.indices {
            if let base = records[index].base.inCurrentForm(form, local: local) { records[index].base = base }
        }
        version = Self.currentVersion
    }
}

// MARK: The file's members, declared once

extension SyncState: JSONRecord {
    package static let unread = SyncState(account: .unread)

    package static let members: [JSONMember<SyncState>] = [
        .version(currentVersion, { $1(&$0.version) }),
        .required("account", { $1(&$0.account) }, .of(Account.self), missing: Account.missing),
        .optional("syncToken", { $1(&$0.syncToken) }, .string),
        .optional("lastSync", { $1(&$0.lastSync) }, .number()),
        .flag("inStep", { $1(&$0.inStep) }),
        // As text: JSON numbers are not read back exactly beyond 2^53.
        .optional(
            "listDigest", { $1(&$0.listDigest) },
            .string(written: { String($0, radix: 16) }, read: { UInt64($0, radix: 16) })),
        .nonEmpty("askAgain", { $1(&$0.askAgain) }, .array(of: .href, leavingOutNone: true)),
        .optional("deletions", { $1(&$0.deletions) }, .of(DeletionWindow.self).orNone),
        .nonEmpty("lists", { $1(&$0.lists) }, .array(of: .of(ListCalendar.self))),
        // One a line, so that a diff of two states shows which records changed.
        .always("records", { $1(&$0.records) }, .array(of: .of(SyncPlan.Record.self), oneToALine: true))
    ]

    package static let missing = "expected the version and the account"
}

extension SyncState.Account: JSONRecord {
    package static let unread = Self(
        calendar: .unread, calendarName: nil, user: "", passwordCommand: nil, allowsHTTP: false)

    package static let members: [JSONMember<Self>] = [
        .required("calendar", { $1(&$0.calendar) }, .webAddress),
        .optional("calendarName", { $1(&$0.calendarName) }, .string),
        .required("user", { $1(&$0.user) }, .string),
        .optional("passwordCommand", { $1(&$0.passwordCommand) }, .string),
        .flag("allowHTTP", { $1(&$0.allowsHTTP) }),
        .optional("home", { $1(&$0.home) }, .webAddress),
        .flag("allLists", { $1(&$0.allLists) }),
        .flag("takesRacingWrites", { $1(&$0.takesRacingWrites) })
    ]

    package static let missing = "expected the calendar's address and the user"
}

extension SyncState.ListCalendar: JSONRecord {
    package static let unread = Self(list: "")

    package static let members: [JSONMember<Self>] = [
        .required("list", { $1(&$0.list) }, .string(written: { $0 }, read: { $0.isEmpty ? nil : $0 })),
        .optional("calendarName", { $1(&$0.calendarName) }, .string),
        .optional("calendar", { $1(&$0.calendar) }, .webAddress),
        .flag("local", { $1(&$0.isLocal) }),
        .optional("syncToken", { $1(&$0.syncToken) }, .string),
        .flag("inStep", { $1(&$0.inStep) }),
        .always("askAgain", { $1(&$0.askAgain) }, .array(of: .href, leavingOutNone: true))
    ]

    package static let missing = "expected the list's name"
}

extension SyncState.DeletionWindow: JSONRecord {
    package static let unread = Self(start: 0, localCount: 0, remoteCount: 0)

    package static let members: [JSONMember<Self>] = [
        .required("start", { $1(&$0.start) }, .number()),
        .always("localCount", { $1(&$0.localCount) }, .count),
        .always("remoteCount", { $1(&$0.remoteCount) }, .count),
        .always("localDeleted", { $1(&$0.localDeleted) }, .count),
        .always("remoteDeleted", { $1(&$0.remoteDeleted) }, .count)
    ]

    package static let missing = "expected when the window began"
}

extension SyncPlan.Record: JSONRecord {
    package static let unread = Self(id: UUID.unread, href: "", etag: nil, base: ToDoItem(id: .unread, title: ""))

    package static let members: [JSONMember<Self>] = [
        .required("id", { $1(&$0.id) }, .id),
        // As the client compares them: a state an earlier todo wrote may hold another spelling.
        .required("href", { $1(&$0.href) }, .href),
        .optional("etag", { $1(&$0.etag) }, .string),
        // In the list's own written form, read as the list's items are.
        .required("base", { $1(&$0.base) }, .item)
    ]

    package static let missing = "expected an id, an href and a base item"
}

extension JSONForm where Value == WebAddress {
    /// The address a state file names, when it is a web address (`http`, `https`).
    static var webAddress: Self {
        string(written: \.absoluteString, read: { WebAddress(string: $0).flatMap { $0.isWebAddress ? $0 : nil } })
    }
}

extension JSONForm where Value == String {
    /// An href, spelled as the client compares them: a state an earlier todo wrote may hold another.
    static var href: Self { string(written: { $0 }, read: CalDAVClient.canonicalHref) }
}
