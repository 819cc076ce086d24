import Foundation

/// What `todo sync` keeps beside the list (the list's path with `.sync` added; only the owner
/// may read it): the account, the calendar, the server's sync token, and for each item what the
/// last sync left agreed (`SyncPlan.Record`). Never the password. Read only by `todo sync`, so
/// that other commands stay as fast as without it.
public struct SyncState: Equatable, Sendable {
    /// Where the list is kept in step.
    public struct Account: Equatable, Sendable {
        /// The calendar collection.
        public var calendar: URL
        public var calendarName: String?
        public var user: String
        /// A command whose first line of output is the password (`pass show dav`), when setup
        /// was given one; otherwise the password comes from `TODO_SYNC_PASSWORD`.
        public var passwordCommand: String?
        /// Whether plain HTTP to a host that is not this machine was allowed (`--allow-http`).
        public var allowsHTTP: Bool

        public init(calendar: URL, calendarName: String?, user: String, passwordCommand: String?, allowsHTTP: Bool) {
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
    /// When a sync last changed the list or its records, in seconds since 1970 (one that found
    /// nothing to do writes nothing).
    public var lastSync: Double?
    public var records: [SyncPlan.Record]

    public static let currentVersion = 1

    public init(account: Account, syncToken: String? = nil, lastSync: Double? = nil, records: [SyncPlan.Record] = []) {
        self.account = account
        self.syncToken = syncToken
        self.lastSync = lastSync
        self.records = records
    }

    /// The state as written in its file.
    public func serialized() -> [UInt8] {
        var root = JSONObject()
        root["version"] = .number(Self.currentVersion)
        var account = JSONObject()
        account["calendar"] = .string(self.account.calendar.absoluteString)
        if let name = self.account.calendarName { account["calendarName"] = .string(name) }
        account["user"] = .string(self.account.user)
        if let command = self.account.passwordCommand { account["passwordCommand"] = .string(command) }
        if self.account.allowsHTTP { account["allowHTTP"] = .bool(true) }
        root["account"] = .object(account)
        if let syncToken { root["syncToken"] = .string(syncToken) }
        if let lastSync { root["lastSync"] = .number(lastSync) }
        root["records"] = .array(records.map { record in
            var object = JSONObject()
            object["id"] = .string(record.id.uuidString)
            object["href"] = .string(record.href)
            if let etag = record.etag { object["etag"] = .string(etag) }
            object["base"] = record.base.json
            return .object(object)
        })
        return JSONValue.object(root).serializedOneElementPerLine()
    }

    /// Reads the state file's bytes; `file` names it in errors.
    public init(bytes: [UInt8], file: String) throws(StoreError) {
        func invalid(_ reason: String) -> StoreError { .invalidContent(file: file, reason: reason) }
        let json: JSONValue
        do { json = try JSONValue(parsing: bytes) } catch { throw invalid("not JSON: \(error)") }
        guard case .object(let root) = json else { throw invalid("expected an object") }
        guard case .number(let literal)? = root["version"], let version = Int(literal) else { throw invalid("version: expected a number") }
        guard version <= Self.currentVersion else {
            throw invalid("format version \(version) is from a newer todo (this one reads version \(Self.currentVersion))")
        }
        guard case .object(let account)? = root["account"], case .string(let calendarText)? = account["calendar"],
              let calendar = URL(string: calendarText), calendar.isWebAddress, case .string(let user)? = account["user"] else {
            throw invalid("account: expected the calendar's address and the user")
        }
        self.account = Account(calendar: calendar, calendarName: account["calendarName"]?.string, user: user,
                               passwordCommand: account["passwordCommand"]?.string, allowsHTTP: account["allowHTTP"] == .bool(true))
        syncToken = root["syncToken"]?.string
        if case .number(let literal)? = root["lastSync"] { lastSync = Double(literal) }
        guard case .array(let list)? = root["records"] ?? .array([]) else { throw invalid("records: expected an array") }
        records = []
        for (index, element) in list.enumerated() {
            guard case .object(let object) = element, case .string(let idText)? = object["id"], let id = UUID(uuidString: idText),
                  case .string(let href)? = object["href"], let baseJSON = object["base"] else {
                throw invalid("records[\(index)]: expected an id, an href and a base item")
            }
            let base: ToDoItem
            do { base = try ToDoItem(json: baseJSON, path: "records[\(index)].base") } catch { throw invalid(error.description) }
            records.append(SyncPlan.Record(id: id, href: href, etag: object["etag"]?.string, base: base))
        }
    }
}
