import Foundation
import ToDoCore

/// `todo sync status`: where the list stands with its calendar.
extension SyncCommand {
    func status(_ runner: CommandRunner) throws {
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
            return ItemField.differ(item, record.base)
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
}
