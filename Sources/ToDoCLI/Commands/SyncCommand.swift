import Foundation
import ToDoCore

/// `todo sync`: the list kept in step with a CalDAV calendar. `todo sync setup <url>` names the
/// calendar, `todo sync` syncs, `todo sync status` says where things stand, `todo sync forget`
/// drops the sync state (the list stays).
struct SyncCommand: ListCommand {
    static let user = OptionSpec(name: "user", valueName: "name", help: "setup: the user name on the server.")
    static let calendar = OptionSpec(name: "calendar", valueName: "name",
                                     help: "setup: the calendar, by its name; made (for tasks only) when the server has none of that name.")
    static let passwordCommand = OptionSpec(name: "password-command", valueName: "command",
                                            help: "setup: a command whose first line of output is the password (as 'pass show dav'); without it, TODO_SYNC_PASSWORD.")
    static let allowHTTP = OptionSpec(name: "allow-http", valueName: nil,
                                      help: "setup: allow plain http:// to a host that is not this machine (the password travels unencrypted).")
    static let prefer = OptionSpec(name: "prefer", valueName: "side",
                                   help: "local or remote: whose change wins a field both changed when which came later cannot be told (default: local).",
                                   completion: .words(["local", "remote"]))
    static let dryRun = OptionSpec(name: "dry-run", valueName: nil, help: "Show what a sync would do and change nothing.")
    static let force = OptionSpec(name: "force", valueName: nil,
                                  help: "Sync even when it deletes every item of a side, or more than half of a side of more than ten.")
    static let json = OptionSpec(name: "json", valueName: nil, help: "Print what the sync did as JSON.")

    static let spec = CommandSpec(
        name: "sync", summary: "Keep the list in step with a CalDAV calendar.",
        arguments: [ArgumentSpec(name: "action", help: "setup, status or forget; none to sync.", isOptional: true),
                    ArgumentSpec(name: "url", help: "setup: the server's address, or the calendar's.", isOptional: true)],
        options: [user, calendar, passwordCommand, allowHTTP, prefer, dryRun, force, json],
        discussion: """
            todo sync setup <url> --user <name> finds the user's calendars (or takes the calendar the
            URL names), picks the one --calendar names (making it when there is none) or the only one
            that holds tasks, checks the password, and records the account beside the list; the
            password comes from TODO_SYNC_PASSWORD or --password-command and is never written down.
            todo sync then sends this list's changes and takes the calendar's: a field changed on one
            side goes to the other, a field changed on both goes to the later change (the loser is
            said; when the calendar's change won, todo undo brings this list's back), an edit beats a delete. Numbers stay local. A sync
            that would delete everything on a side, or more than half of a side of more than ten, is
            refused without --force, and so is one that would, with what syncs deleted in the last day. A change
            the server refuses is said with its reason, the rest is sent, the sync exits 1, and the next sync
            tries it again. One sync of a list runs at a time. The server is never asked while the list is locked.
            """,
        argumentCompletion: .words(["setup", "status", "forget"]), changesList: true)

    /// What a sync of a list without a sync state says.
    static let notSynced = "the list is not synced; todo sync setup <url> --user <name> sets it up"

    /// Seconds a request to the server may take when `TODO_HTTP_TIMEOUT` is not set: a calendar of
    /// 10,000 tasks takes seconds to list.
    static let timeout = 60.0

    enum Action: Equatable {
        case sync(prefer: SyncSide, dryRun: Bool, force: Bool, json: Bool)
        case setup(url: URL, user: String, calendar: String?, passwordCommand: String?, allowHTTP: Bool)
        case status
        case forget
    }

    var action: Action

    init(action: Action) {
        self.action = action
    }

    init(_ arguments: CommandArguments) throws(UsageError) {
        let positionals = try arguments.positionals(atMost: 2)
        let setupOptions = [Self.user, Self.calendar, Self.passwordCommand, Self.allowHTTP]
        let syncOptions = [Self.prefer, Self.dryRun, Self.force, Self.json]
        func given(_ options: [OptionSpec]) -> OptionSpec? {
            options.first { arguments.flag($0) || arguments.value($0) != nil }
        }
        func refuse(_ options: [OptionSpec], for name: String) throws(UsageError) {
            if let option = given(options) { throw arguments.error("'\(option.flag)' does not go with 'todo sync \(name)'") }
        }
        switch positionals.first {
        case nil:
            try refuse(setupOptions, for: "")
            let prefer: SyncSide
            switch arguments.value(Self.prefer)?.lowercased() {
            case nil, "local": prefer = .local
            case "remote": prefer = .remote
            case let other?: throw arguments.error("invalid value '\(other)' for '--prefer'; use local or remote")
            }
            action = .sync(prefer: prefer, dryRun: arguments.flag(Self.dryRun), force: arguments.flag(Self.force), json: arguments.flag(Self.json))
        case "setup":
            try refuse(syncOptions, for: "setup")
            guard positionals.count == 2, let url = URL(string: positionals[1]), url.isWebAddress else {
                throw arguments.error(positionals.count < 2 ? "todo sync setup needs the server's address, as https://dav.example.com/"
                                      : "'\(positionals[1])' is not an http:// or https:// address")
            }
            // It would be recorded and shown (and a password in it sent on); the address is not repeated.
            if url.user != nil || url.password != nil {
                throw arguments.error("the server's address holds a user name or password (user:password@); give the address without it,"
                                      + " the user with --user and the password in TODO_SYNC_PASSWORD or through --password-command")
            }
            guard let user = arguments.value(Self.user), !user.isEmpty else { throw arguments.error("todo sync setup needs --user <name>") }
            action = .setup(url: url, user: user, calendar: arguments.value(Self.calendar), passwordCommand: arguments.value(Self.passwordCommand),
                            allowHTTP: arguments.flag(Self.allowHTTP))
        case "status", "forget":
            try refuse(setupOptions + syncOptions, for: positionals[0])
            _ = try arguments.positionals(atMost: 1)
            action = positionals[0] == "status" ? .status : .forget
        case let other?:
            throw arguments.error("unknown sync action '\(other)'; use setup, status or forget, or none to sync")
        }
    }

    func run(with runner: CommandRunner) throws {
        switch action {
        case .setup(let url, let user, let calendar, let passwordCommand, let allowHTTP):
            try Self.whileSyncing(runner) {
                try setup(url: url, user: user, calendarName: calendar, passwordCommand: passwordCommand, allowHTTP: allowHTTP, runner)
            }
        case .status:
            try status(runner)
        case .forget:
            var had = try runner.store.hasSyncState()
            if had {
                try Self.whileSyncing(runner) {
                    had = try runner.store.update(withSyncState: { _, state -> Bool in
                        defer { state = nil }
                        return state != nil
                    })
                }
            }
            runner.context.output.write(had ? "Forgot the sync state; the list stays as it is.\n" : "The list is not synced; nothing to forget.\n")
        case .sync(let prefer, let dryRun, let force, let json):
            try sync(prefer: prefer, dryRun: dryRun, force: force, json: json, runner)
        }
    }

    // MARK: Setup

    private func setup(url: URL, user: String, calendarName: String?, passwordCommand: String?, allowHTTP: Bool, _ runner: CommandRunner) throws {
        let context = runner.context
        if url.scheme?.lowercased() == "http", !Self.isLoopback(url) {
            guard allowHTTP else {
                throw UsageError(message: "\(url.absoluteString) is plain http, which would send the password unencrypted; use https, or --allow-http",
                                 command: Self.spec)
            }
            context.errorOutput.write("Warning: \(url.host ?? "the server") is reached over plain http; the password travels unencrypted\n")
        }
        let password = try Self.password(command: passwordCommand, context)
        let client = try Self.client(user: user, password: password, runner)
        let found: (home: URL?, calendars: [CalDAVClient.Calendar])
        do { found = try client.calendars(at: url) } catch { throw SyncFailure(error) }
        let tasks = found.calendars.filter(\.holdsTasks)
        var chosen: CalDAVClient.Calendar
        var made = false
        if let calendarName {
            if let named = tasks.first(where: { $0.displayName == calendarName })
                ?? tasks.first(where: { $0.displayName?.lowercased() == calendarName.lowercased() }) {
                chosen = named
            } else {
                guard let home = found.home else {
                    throw SyncFailure(.notCalDAV("\(url.absoluteString) names a calendar, not \"\(calendarName)\"; give the server's address to find or make it"))
                }
                do { chosen = try client.makeCalendar(named: calendarName, slug: Self.slug(calendarName), in: home) } catch { throw SyncFailure(error) }
                made = true
            }
        } else if tasks.count == 1 {
            chosen = tasks[0]
        } else if tasks.isEmpty {
            throw SyncFailure(.notCalDAV("the server has no calendar for tasks; give --calendar <name> to make one"))
        } else {
            let names = tasks.map { "\"\($0.displayName ?? $0.url.lastPathComponent)\"" }.joined(separator: ", ")
            throw UsageError(message: "the server has \(tasks.count) calendars for tasks (\(names)); give --calendar <name>", command: Self.spec)
        }
        if !chosen.url.absoluteString.hasSuffix("/") { chosen.url = chosen.url.appendingPathComponent("") }
        let count: Int
        do { count = try client.tasks(in: chosen.url).resources.count } catch { throw SyncFailure(error) }
        let account = SyncState.Account(calendar: chosen.url, calendarName: chosen.displayName, user: user, passwordCommand: passwordCommand,
                                        allowsHTTP: allowHTTP)
        try runner.store.update(withSyncState: { _, state in
            // Another calendar starts afresh; the same one keeps what the last sync agreed.
            if state?.account.calendar != account.calendar { state = SyncState(account: account) } else { state?.account = account }
        })
        let name = chosen.displayName.map { "\"\($0)\"" } ?? chosen.url.absoluteString
        context.output.write(TerminalText.printableLines("""
            \(made ? "Made the calendar" : "Found the calendar") \(name) at \(chosen.url.absoluteString) for \(user), with \(counted(count, "task")).
            Run todo sync to sync.\n
            """))
    }

    /// Whether the URL's host is this machine by its own name: `localhost`, `127.x.x.x` or `::1`;
    /// no name is looked up to decide.
    static func isLoopback(_ url: URL) -> Bool {
        guard let host = url.host?.lowercased() else { return false }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bare == "localhost" || bare == "::1" || bare.split(separator: ".").count == 4 && bare.hasPrefix("127.")
            && bare.split(separator: ".").allSatisfy { UInt8($0) != nil }
    }

    /// A calendar's name as a path segment: letters and digits, the rest as `-`.
    static func slug(_ name: String) -> String {
        let slug = CalDAVClient.pathSegment(name.lowercased(), replacement: "-")
        return slug.trimmingCharacters(in: CharacterSet(charactersIn: "-")).isEmpty ? "tasks" : slug
    }

    // MARK: Password and client

    /// How long a password command may take, in seconds: long enough to type a passphrase into
    /// a pinentry window, not for ever.
    static let passwordCommandTimeout = 120.0
    /// How much of a password command's output is kept: a password is far shorter; the rest is read and dropped.
    static let passwordCommandOutputLimit = 64 << 10

    /// What a command prints, read on a thread of its own as it comes, the first
    /// `passwordCommandOutputLimit` bytes kept.
    private final class PrintedOutput: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [UInt8] = []
        private let finished = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                while let chunk = try? handle.read(upToCount: 1 << 16), !chunk.isEmpty {
                    lock.withLock { kept += chunk.prefix(max(0, SyncCommand.passwordCommandOutputLimit - kept.count)) }
                }
                finished.signal()
            }
        }

        /// What was printed once the output ended, or after `seconds` (a helper the command left
        /// running may hold the output open): what has arrived by then.
        func bytes(waitingAtMost seconds: Double) -> [UInt8] {
            _ = finished.wait(timeout: .now() + seconds)
            return lock.withLock { kept }
        }
    }

    /// The password: the first line a password command prints, else `TODO_SYNC_PASSWORD`. The
    /// command reads nothing (its input is empty), and is stopped when it has not ended within
    /// `passwordCommandTimeout`. What it prints is read while it runs (a command printing more
    /// than a pipe holds would otherwise wait for ever), and only its first
    /// `passwordCommandOutputLimit` bytes are kept. Messages say that the command failed, never
    /// its text, which may hold a secret of its own.
    static func password(command: String?, _ context: Context, timeout: Double = passwordCommandTimeout) throws -> String {
        if let command {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            process.standardInput = FileHandle.nullDevice
            let output = Pipe()
            process.standardOutput = output
            let ended = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in ended.signal() }
            do { try process.run() } catch { throw SyncFailure(message: "the password command could not be run: \(error.localizedDescription)") }
            try? output.fileHandleForWriting.close()
            let printed = PrintedOutput(output.fileHandleForReading)
            guard ended.wait(timeout: .now() + timeout) == .success else {
                process.terminate()
                throw SyncFailure(message: "the password command gave no password within \(Int(timeout)) seconds")
            }
            guard process.terminationStatus == 0 else {
                throw SyncFailure(message: "the password command failed (exit \(process.terminationStatus))")
            }
            // The first line, without its end (`\n` or `\r\n`); spaces are the password's.
            var bytes = printed.bytes(waitingAtMost: 2).prefix { $0 != UInt8(ascii: "\n") }
            if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
            let line = String(decoding: bytes, as: UTF8.self)
            guard !line.isEmpty else { throw SyncFailure(message: "the password command printed no password") }
            return line
        }
        guard let password = context.environment["TODO_SYNC_PASSWORD"], !password.isEmpty else {
            throw UsageError(message: "no password: set TODO_SYNC_PASSWORD, or give todo sync setup --password-command", showsUsage: false)
        }
        return password
    }

    static func client(user: String, password: String, _ runner: CommandRunner) throws -> CalDAVClient {
        guard let transport = runner.context.transport else { throw SyncFailure(message: "this todo cannot make HTTP requests") }
        return CalDAVClient(transport: transport, credentials: HTTPCredentials(user: user, password: password),
                            timeout: try runner.settings.httpTimeout ?? timeout)
    }

    // MARK: Status

    private func status(_ runner: CommandRunner) throws {
        guard let state = try runner.store.loadSyncState() else {
            runner.context.output.write("The list is not synced; todo sync setup <url> --user <name> sets it up.\n")
            return
        }
        let manager = try runner.store.load()
        let records = Dictionary(state.records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let items = manager.toDoItems + manager.doneItems
        let ids = Set(items.map(\.id))
        let waiting = items.filter { item in
            guard let record = records[item.id] else { return true }
            return SyncField.differ(item.withAllDaySaid(in: runner.settings.timeZone), record.base)
        }.count + state.records.filter { !ids.contains($0.id) }.count
        let last = state.lastSync.map { "\(runner.renderer.dates.string(from: $0, allDay: false))" } ?? "never"
        let name = state.account.calendarName.map { "\"\($0)\" " } ?? ""
        runner.context.output.write(TerminalText.printableLines("""
            Calendar: \(name)\(state.account.calendar.absoluteString)
            User:     \(state.account.user)
            Password: \(state.account.passwordCommand == nil ? "from TODO_SYNC_PASSWORD" : "from the command given at setup")
            Changed:  \(last)
            Synced:   \(counted(state.records.count, "item"))
            Waiting:  \(counted(waiting, "local change"))\n
            """))
    }

    // MARK: Sync

    private func sync(prefer: SyncSide, dryRun: Bool, force: Bool, json: Bool, _ runner: CommandRunner) throws {
        // A list that is not synced leaves no sync lock behind.
        guard try runner.store.hasSyncState() else { throw UsageError(message: Self.notSynced, showsUsage: false) }
        // One sync of a list at a time, from reading its state to recording what was sent.
        try Self.whileSyncing(runner) {
            guard let state = try runner.store.loadSyncState() else {
                throw UsageError(message: Self.notSynced, showsUsage: false)
            }
            let password = try Self.password(command: state.account.passwordCommand, runner.context)
            let run = SyncRun(store: runner.store, client: try Self.client(user: state.account.user, password: password, runner),
                              timeZone: runner.settings.timeZone, now: runner.context.now, productID: HelpRenderer.productID,
                              tieBreaker: prefer, force: force, command: runner.arguments)
            let output = runner.context.output
            do {
                if dryRun {
                    let plan = try run.plan()
                    output.write(TerminalText.printableLines(Self.describe(plan)))
                    return
                }
                let report = try run.run(readState: state)
                output.write(TerminalText.printableLines(json ? Self.json(report) : Self.describe(report, runner.renderer, state)))
                if !report.refused.isEmpty {
                    throw SyncFailure(message: "the server refused \(counted(report.refused.count, "change")) (said above); the rest was synced,"
                                      + " and the next sync tries \(report.refused.count == 1 ? "it" : "them") again")
                }
            } catch let error as SyncError {
                throw SyncFailure(error)
            }
        }
    }

    /// Runs `body` holding the list's sync lock; another sync that holds it longer than the lock
    /// timeout is said as such.
    private static func whileSyncing(_ runner: CommandRunner, _ body: () throws -> Void) throws {
        do {
            try runner.store.whileSyncing(body)
        } catch StoreError.lockTimeout(let lockFile, let seconds) where lockFile.hasSuffix(".sync.lock") {
            throw SyncFailure(message: "another todo sync of this list is running (it has held \(lockFile) for more than \(Int(seconds)) seconds);"
                              + " nothing was changed, try again once it has ended")
        }
    }

    static func describe(_ plan: SyncPlan) -> String {
        var lines: [String] = []
        for change in plan.local {
            switch change {
            case .add(let item): lines.append("Would receive: \(item.title)")
            case .update(let item): lines.append("Would update \(item.number): \(item.title)")
            case .remove(let item): lines.append("Would remove \(item.number): \(item.title) (deleted on the server)")
            }
        }
        for change in plan.remote {
            switch change {
            case .put(let item, _, _): lines.append("Would send \(item.number): \(item.title)")
            case .delete(_, _, let item): lines.append("Would delete on the server: \(item.title)")
            }
        }
        lines.append("Would sync: \(plan.local.count) here, \(plan.remote.count) on the server; nothing was changed.")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func describe(_ report: SyncReport, _ renderer: ItemRenderer, _ state: SyncState) -> String {
        var lines: [String] = []
        for item in report.received.added { lines.append("Received \(item.number): \(item.title)") }
        for item in report.received.updated { lines.append("Updated \(item.number): \(item.title)") }
        for item in report.received.removed { lines.append("Removed \(item.number): \(item.title) (deleted on the server)") }
        for item in report.sent { lines.append("Sent \(item.number): \(item.title)") }
        for item in report.deletedRemotely { lines.append("Deleted on the server: \(item.title)") }
        for (item, conflict) in report.conflicts {
            let lost = value(of: conflict.field, in: conflict.lost, renderer)
            let why = conflict.byPreference ? "which came later cannot be told, and --prefer is \(conflict.winner.rawValue)" : "the later change"
            lines.append(conflict.winner == .local
                ? "Conflict \(item.number) \(conflict.field.rawValue): kept this list's (\(why)); the server's was \(lost)"
                : "Conflict \(item.number) \(conflict.field.rawValue): took the server's (\(why)); this list's was \(lost), which todo undo brings back")
        }
        for (item, side) in report.keptAgainstDelete {
            lines.append(side == .remote ? "Kept \(item.number): \(item.title) (deleted on the server, changed here: sent again)"
                         : "Kept: \(item.title) (deleted here, changed on the server: received again)")
        }
        for (arrived, existing) in report.received.twins {
            lines.append("Twin \(arrived.number): \(arrived.title) arrived with the content of \(existing.number)")
        }
        for (item, reason) in report.received.refused { lines.append("Left out: \(item.title) (\(reason))") }
        for (href, reason) in report.unreadable { lines.append("Left alone: \(href) (\(reason)); its item stays as it was") }
        for (item, reason) in report.refused { lines.append("Not sent \(item.number): \(item.title) (\(reason))") }
        let name = state.account.calendarName.map { "\"\($0)\"" } ?? state.account.calendar.absoluteString
        lines.append("Synced with \(name): received \(report.received.added.count + report.received.updated.count + report.received.removed.count), "
                     + "sent \(report.sent.count + report.deletedRemotely.count), \(counted(report.conflicts.count, "conflict")).")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func value(of field: SyncField, in item: ToDoItem, _ renderer: ItemRenderer) -> String {
        switch field {
        case .title: return "\"\(item.title)\""
        case .description: return item.itemDescription.map { "\"\($0)\"" } ?? "no description"
        case .due: return renderer.dueText(item) ?? "no due date"
        case .start: return item.start.map { renderer.dates.string(from: $0) } ?? "no start"
        case .repeatRule: return item.repeatRule ?? "no repeat"
        case .priority: return item.priority.map { "priority \($0)" } ?? "no priority"
        case .tags: return item.tags.isEmpty ? "no tags" : item.tags.map { "+" + $0 }.joined(separator: " ")
        case .parent: return item.parent.map { "parent \($0.uuidString)" } ?? "no parent"
        case .place: return item.location.map { "\"\($0.name)\"" } ?? "no place"
        case .status: return item.done ? "done" : "open"
        }
    }

    private static func json(_ report: SyncReport) -> String {
        func items(_ list: [ToDoItem]) -> JSONValue { .array(list.map(\.json)) }
        var object = JSONObject()
        object["received"] = items(report.received.added)
        object["updated"] = items(report.received.updated)
        object["removed"] = items(report.received.removed)
        object["sent"] = items(report.sent)
        object["deletedOnServer"] = items(report.deletedRemotely)
        object["conflicts"] = .array(report.conflicts.map { conflict in
            var entry = JSONObject()
            entry["id"] = .string(conflict.item.id.uuidString)
            entry["field"] = .string(conflict.conflict.field.rawValue)
            entry["winner"] = .string(conflict.conflict.winner.rawValue)
            entry["decidedBy"] = .string(conflict.conflict.byPreference ? "prefer" : "later")
            entry["lost"] = conflict.conflict.lost.json
            return .object(entry)
        })
        object["unreadable"] = .array(report.unreadable.map { href, reason in
            var entry = JSONObject()
            entry["href"] = .string(href)
            entry["reason"] = .string(reason)
            return .object(entry)
        })
        object["refused"] = .array(report.refused.map { item, reason in
            var entry = JSONObject()
            entry["id"] = .string(item.id.uuidString)
            entry["number"] = .number(item.number)
            entry["reason"] = .string(reason)
            return .object(entry)
        })
        return String(decoding: JSONValue.object(object).serialized(), as: UTF8.self) + "\n"
    }
}

/// A sync that did not happen, or not whole: the server could not be reached, refused the
/// password, or answered wrongly; nothing was lost on either side (exit 1). A sync that would
/// delete too much is refused (exit 3).
struct SyncFailure: Error, CustomStringConvertible {
    let message: String
    let refused: Bool

    init(message: String, refused: Bool = false) {
        self.message = message
        self.refused = refused
    }

    init(_ error: CalDAVError) {
        self.init(message: "cannot sync: \(error)")
    }

    init(_ error: SyncError) {
        switch error {
        case .notSetUp:
            self.init(message: SyncCommand.notSynced)
        case .server(let server):
            self.init(server)
        case .deletesTooMuch(let local, let remote, let localCount, let remoteCount, let earlier):
            var what = local > 0 ? "delete \(local) of the \(counted(localCount, "item")) here" : "delete \(remote) of the \(counted(remoteCount, "task")) on the server"
            if earlier > 0 { what += ", after \(earlier) deleted by syncs in the last day" }
            self.init(message: "the sync would \(what); nothing was changed (todo sync --force does it)", refused: true)
        }
    }

    var description: String { message }
}
