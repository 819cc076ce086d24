import ToDoCore
import ToDoModel

/// `todo sync status`: where the list stands with its calendar.
extension SyncCommand {
    func status(_ runner: CommandRunner, json: Bool) throws {
        guard let state = try runner.store.loadSyncState() else {
            runner.context.output.write(
                json
                    ? "{\"configured\": false}\n"
                    : "The list is not synced; todo sync setup <url> --user <name> sets it up.\n")
            return
        }
        let manager = try runner.load()
        let records = Dictionary(state.records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let items = manager.toDoItems + manager.doneItems
        let ids = Set(items.map(\.id))
        let waiting =
            items.filter { item in
                guard let record = records[item.id] else { return true }
                return ItemField.differ(item, record.base)
            }.count + state.records.filter { !ids.contains($0.id) }.count
        if json {
            var object = JSONObject()
            object["configured"] = .bool(true)
            object["calendar"] = .string(state.account.calendar.absoluteString)
            object["calendarName"] = state.account.calendarName.map(JSONValue.string) ?? .null
            object["user"] = .string(state.account.user)
            object["password"] = .string(state.account.passwordCommand == nil ? "TODO_SYNC_PASSWORD" : "command")
            object["lastSynced"] = state.lastSync.map { .number(JSONValue.literal(for: $0)) } ?? .null
            object["synced"] = .number(String(state.records.count))
            object["waiting"] = .number(String(waiting))
            object["lists"] = .array(
                state.lists.map { list in
                    var entry = JSONObject()
                    entry["list"] = .string(list.list)
                    entry["calendarName"] = .string(list.wantedCalendar)
                    entry["calendar"] = list.calendar.map { .string($0.absoluteString) } ?? .null
                    entry["local"] = .bool(list.isLocal)
                    return .object(entry)
                })
            runner.context.output.write(bytes: JSONValue.object(object).serialized())
            return
        }
        let last = state.lastSync.map { "\(runner.renderer.dates.string(from: $0, allDay: false))" } ?? "never"
        let name = state.account.calendarName.map { "\"\($0)\" " } ?? ""
        runner.context.output.write(
            TerminalText.printableLines(
                """
                Calendar:    \(name)\(state.account.calendar.absoluteString)
                User:        \(state.account.user)
                Password:    \(state.account.passwordCommand == nil ? "from TODO_SYNC_PASSWORD" : "from the command given at setup")
                Last synced: \(last)
                Synced:      \(counted(state.records.count, "item"))
                Waiting:     \(counted(waiting, "local change"))\n
                """
                    + state.lists.map { list in
                        // Each other list, and where it is kept.
                        let place =
                            list.isLocal
                            ? "kept on this machine"
                            : "\"\(list.wantedCalendar)\" "
                                + (list.calendar?.absoluteString ?? "(found or made by the next sync)")
                        return "List \(list.list): \(place)\n"
                    }.joined()))
    }
}
