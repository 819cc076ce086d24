import ToDoCore
import ToDoModel

/// `todo sync setup`: the calendar found or made, the password checked, the account recorded.
extension SyncCommand {
    func setup(
        url: WebAddress, user: String, calendarName: String?, passwordCommand: String?, allowHTTP: Bool,
        lists: [SyncState.ListCalendar],
        allLists: Bool, _ runner: CommandRunner
    ) throws {
        let context = runner.context
        if url.scheme.lowercased() == "http", !Self.isLoopback(url) {
            guard allowHTTP else {
                throw CommandError(
                    message:
                        "\(url.absoluteString) is plain http, which would send the password unencrypted; use https, or --allow-http",
                    command: Self.spec)
            }
            context.errorOutput.write(
                "Warning: \(url.host ?? "the server") is reached over plain http; the password travels unencrypted\n")
        }
        let password = try Self.password(command: passwordCommand, context)
        let client = try Self.client(user: user, password: password, origin: url, runner)
        let found: (home: WebAddress?, calendars: [CalDAVClient.Calendar])
        do { found = try client.calendars(at: url) } catch { throw CommandError.sync(error) }
        var chosen: CalDAVClient.Calendar
        var made = false
        switch CalendarChoice(named: calendarName, among: found.calendars) {
        case .found(let calendar):
            chosen = calendar
        case .toMake(let name):
            guard let home = found.home else {
                throw CommandError.sync(
                    .notCalDAV(
                        "\(url.absoluteString) names a calendar, not \"\(name)\"; give the server's address to find or make it"
                    ))
            }
            do { chosen = try client.makeCalendar(named: name, slug: SyncRun.slug(name), in: home) } catch {
                throw CommandError.sync(error)
            }
            made = true
        case .noneHoldsTasks:
            throw CommandError.sync(
                .notCalDAV("the server has no calendar for tasks; give --calendar <name> to make one"))
        case .several(let names):
            let quoted = names.map { "\"\($0)\"" }.joined(separator: ", ")
            throw CommandError(
                message: "the server has \(names.count) calendars for tasks (\(quoted)); give --calendar <name>",
                command: Self.spec)
        }
        chosen.url = CalDAVClient.asCollection(chosen.url)
        let count: Int
        do { count = try client.tasks(in: chosen.url).resources.count } catch { throw CommandError.sync(error) }
        var account = SyncState.Account(
            calendar: chosen.url, calendarName: chosen.displayName, user: user, passwordCommand: passwordCommand,
            allowsHTTP: allowHTTP)
        account.home = found.home
        account.allLists = allLists
        // A server that takes two writes of one version at once makes If-Match no lock: found now,
        // and each write read back from then on.
        let probe = "todo-setup-probe-" + (context.newID?() ?? UUID()).uuidString
        do { account.takesRacingWrites = try client.takesRacingWrites(in: chosen.url, uid: probe) } catch {
            throw CommandError.sync(error)
        }
        try runner.store.update(withSyncState: { _, state in
            // Another calendar starts afresh; the same one keeps what the last sync agreed.
            if state?.account.calendar != account.calendar {
                state = SyncState(account: account)
            } else {
                state?.account = account
            }
            // A list given another calendar, or kept local, is found anew by the next sync.
            for list in lists {
                if let index = state?.lists.firstIndex(where: { ListName.same($0.list, list.list) }) {
                    if state?.lists[index].wantedCalendar != list.wantedCalendar
                        || state?.lists[index].isLocal != list.isLocal
                    {
                        state?.lists[index] = list
                    }
                } else {
                    state?.lists.append(list)
                }
            }
        })
        let name = chosen.displayName.map { "\"\($0)\"" } ?? chosen.url.absoluteString
        context.output.write(
            TerminalText.printableLines(
                """
                \(made ? "Made the calendar" : "Found the calendar") \(name) at \(chosen.url.absoluteString) for \(user), with \(counted(count, "task")).\(
                account.takesRacingWrites ? "\nThe server takes two writes of one version at once (If-Match is no lock there): each sync reads its writes back." : "")
                Run todo sync to sync.\n
                """))
    }

    /// Whether the URL's host is this machine by its own name: `localhost`, `127.x.x.x` or `::1`;
    /// no name is looked up to decide.
    static func isLoopback(_ url: WebAddress) -> Bool {
        guard let host = url.host?.lowercased() else { return false }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bare == "localhost" || bare == "::1"
            || bare.split(separator: ".").count == 4 && bare.hasPrefix("127.")
                && bare.split(separator: ".").allSatisfy { UInt8($0) != nil }
    }

}
