import ToDoCore
import ToDoModel

import enum ToDoStorage.StoreError

/// `todo sync`: the list kept in step with a CalDAV calendar. `todo sync setup <url>` names the
/// calendar, `todo sync` syncs, `todo sync status` says where things stand, `todo sync forget`
/// drops the sync state (the list stays).
struct SyncCommand: ListCommand {
    static let user = OptionSpec(name: "user", valueName: "name", help: "setup: the user name on the server.")
    static let calendar = OptionSpec(
        name: "calendar", valueName: "name",
        help: "setup: the calendar, by its name; made (for tasks only) when the server has none of that name.")
    static let passwordCommand = OptionSpec(
        name: "password-command", valueName: "command",
        help:
            "setup: a command whose first line of output is the password (as 'pass show dav'); without it, TODO_SYNC_PASSWORD."
    )
    static let allowHTTP = OptionSpec(
        name: "allow-http", valueName: nil,
        help: "setup: allow plain http:// to a host that is not this machine (the password travels unencrypted).")
    static let map = OptionSpec(
        name: "map", valueName: "list=calendar",
        help: "setup: keep this list in the calendar of that name (else one of the list's name); repeat for more.",
        completion: .names(.lists), repeats: true)
    static let local = OptionSpec(
        name: "local", valueName: "list", help: "setup: keep this list on this machine only; repeat for more.",
        completion: .names(.lists), repeats: true)
    static let allLists = OptionSpec(
        name: "all-lists", valueName: nil,
        help:
            "setup: take every calendar of the account that holds tasks as a list of its name (a second machine's lists)."
    )
    static let prefer = OptionSpec(
        name: "prefer", valueName: "side",
        help:
            "local or remote: whose change wins a field both changed when which came later cannot be told (default: local).",
        completion: .words(["local", "remote"]))
    static let dryRun = OptionSpec(
        name: "dry-run", valueName: nil, help: "Show what a sync would do and change nothing.")
    static let force = OptionSpec(
        name: "force", valueName: nil,
        help: "Sync even when it deletes every item of a side, or more than half of a side of more than ten.")
    static let json = OptionSpec(name: "json", valueName: nil, help: "Print what the sync did as JSON.")

    static let spec = CommandSpec(
        name: "sync", summary: "Keep the list in step with a CalDAV calendar.",
        arguments: [
            ArgumentSpec(name: "action", help: "setup, status or forget; none to sync.", isOptional: true),
            ArgumentSpec(name: "url", help: "setup: the server's address, or the calendar's.", isOptional: true)
        ],
        options: [user, calendar, passwordCommand, allowHTTP, map, local, allLists, prefer, dryRun, force, json],
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
            Each list is a calendar of its own on the account, found by the list's name (or the one
            --map gives it: --map Work="Office tasks") and made when there is none; the default list's
            is the calendar setup chose. A task made in a list's calendar arrives in that list, and an
            item moved to another list moves to its calendar. --local Home keeps a list off the server.
            A list joins the sync once it has an item here; --all-lists takes every calendar of the
            account that holds tasks as a list (on a second machine, the lists the first made).
            """,
        argumentCompletion: .words(["setup", "status", "forget"]), changesList: true)

    /// What a sync of a list without a sync state says.
    static let notSynced = "the list is not synced; todo sync setup <url> --user <name> sets it up"

    /// Seconds a request to the server may take when `TODO_HTTP_TIMEOUT` is not set: a calendar of
    /// 10,000 tasks takes seconds to list.
    static let timeout = 60.0

    enum Action: Equatable {
        case sync(prefer: SyncSide, dryRun: Bool, force: Bool, json: Bool)
        case setup(
            url: WebAddress, user: String, calendar: String?, passwordCommand: String?, allowHTTP: Bool,
            lists: [SyncState.ListCalendar], allLists: Bool)
        case status(json: Bool)
        case forget
    }

    var action: Action

    init(action: Action) {
        self.action = action
    }

    init(_ arguments: CommandArguments) throws(CommandError) {
        let positionals = try arguments.positionals(atMost: 2)
        let setupOptions = [
            Self.user, Self.calendar, Self.passwordCommand, Self.allowHTTP, Self.map, Self.local, Self.allLists
        ]
        let syncOptions = [Self.prefer, Self.dryRun, Self.force, Self.json]
        func given(_ options: [OptionSpec]) -> OptionSpec? {
            options.first { arguments.flag($0) || arguments.value($0) != nil }
        }
        func refuse(_ options: [OptionSpec], for name: String) throws(CommandError) {
            if let option = given(options) {
                throw arguments.error("'\(option.flag)' does not go with 'todo sync \(name)'")
            }
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
            action = .sync(
                prefer: prefer, dryRun: arguments.flag(Self.dryRun), force: arguments.flag(Self.force),
                json: arguments.flag(Self.json))
        case "setup":
            try refuse(syncOptions, for: "setup")
            guard positionals.count == 2, let url = WebAddress(string: positionals[1]), url.isWebAddress else {
                throw arguments.error(
                    positionals.count < 2
                        ? "todo sync setup needs the server's address, as https://dav.example.com/"
                        : "'\(positionals[1])' is not an http:// or https:// address")
            }
            // It would be recorded and shown (and a password in it sent on); the address is not repeated.
            if url.hasUserInformation {
                throw arguments.error(
                    "the server's address holds a user name or password (user:password@); give the address without it,"
                        + " the user with --user and the password in TODO_SYNC_PASSWORD or through --password-command")
            }
            guard let user = arguments.value(Self.user), !user.isEmpty else {
                throw arguments.error("todo sync setup needs --user <name>")
            }
            var lists: [SyncState.ListCalendar] = []
            for text in arguments.values(Self.map) {
                let parts = text.split(separator: "=", maxSplits: 1).map { Whitespace.trimmingSpaces(String($0)) }
                guard parts.count == 2, let typed = ListName.typed(parts[0]), ListName.typed(parts[1]) != nil else {
                    throw arguments.error(
                        "'--map \(TerminalText.printable(text))' names no list and calendar; give --map <list>=<calendar>, as --map Work=Office"
                    )
                }
                guard let list = typed else {
                    throw arguments.error(
                        "the default list's calendar is the one setup chooses; give --calendar \(TerminalText.printable(parts[1])) for it"
                    )
                }
                lists.append(SyncState.ListCalendar(list: list, calendarName: parts[1]))
            }
            for text in arguments.values(Self.local) {
                guard let typed = ListName.typed(Whitespace.trimmingSpaces(text)), let list = typed else {
                    throw arguments.error(
                        "'--local \(TerminalText.printable(text))' names no list but the default one, which is synced; name another list"
                    )
                }
                guard !lists.contains(where: { ListName.same($0.list, list) }) else {
                    throw arguments.error("'\(TerminalText.printable(list))' is given both --map and --local")
                }
                lists.append(SyncState.ListCalendar(list: list, isLocal: true))
            }
            action = .setup(
                url: url, user: user, calendar: arguments.value(Self.calendar),
                passwordCommand: arguments.value(Self.passwordCommand),
                allowHTTP: arguments.flag(Self.allowHTTP), lists: lists, allLists: arguments.flag(Self.allLists))
        case "status", "forget":
            try refuse(
                setupOptions + syncOptions.filter { positionals[0] == "forget" || $0 != Self.json }, for: positionals[0]
            )
            _ = try arguments.positionals(atMost: 1)
            action = positionals[0] == "status" ? .status(json: arguments.flag(Self.json)) : .forget
        case let other?:
            throw arguments.error("unknown sync action '\(other)'; use setup, status or forget, or none to sync")
        }
    }

    func run(with runner: CommandRunner) throws {
        switch action {
        case .setup(let url, let user, let calendar, let passwordCommand, let allowHTTP, let lists, let allLists):
            try Self.whileSyncing(runner, leavingNothingOnFailure: true) {
                try setup(
                    url: url, user: user, calendarName: calendar, passwordCommand: passwordCommand,
                    allowHTTP: allowHTTP, lists: lists,
                    allLists: allLists, runner)
            }
        case .status(let json):
            try status(runner, json: json)
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
            runner.context.output.write(
                had
                    ? "Forgot the sync state; the list stays as it is.\n"
                    : "The list is not synced; nothing to forget.\n")
        case .sync(let prefer, let dryRun, let force, let json):
            try sync(prefer: prefer, dryRun: dryRun, force: force, json: json, runner)
        }
    }

    /// Runs `body` holding the list's sync lock; another sync that holds it longer than the lock
    /// timeout is said as such.
    static func whileSyncing(
        _ runner: CommandRunner, leavingNothingOnFailure: Bool = false, _ body: () throws -> Void
    ) throws {
        do {
            try runner.store.whileSyncing(leavingNothingOnFailure: leavingNothingOnFailure, body)
        } catch StoreError.lockTimeout(let lockFile, let seconds) where lockFile.hasSuffix(".sync.lock") {
            throw CommandError.sync(
                "another todo sync of this list is running (it has held \(lockFile) for more than \(Int(seconds)) seconds);"
                    + " nothing was changed, try again once it has ended")
        }
    }
}
