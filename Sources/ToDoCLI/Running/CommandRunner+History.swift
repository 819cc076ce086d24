import ToDoCore

extension CommandRunner {
    private var historyRenderer: HistoryRenderer { HistoryRenderer(items: renderer) }

    /// `todo undo` and `todo redo`: takes the changes back in one transaction and prints each.
    func undo(_ selection: JSONFileStore.UndoSelection) throws {
        let (targets, history) = try store.undo(selection, command: arguments)
        write(historyRenderer.reverted(targets, in: history))
    }

    /// `todo history`: the latest changes, newest first.
    func history(limit: Int, json: Bool) throws {
        let history = try store.history()
        if history.unreadableLines > 0 {
            let lines = counted(history.unreadableLines, "line")
            context.errorOutput.write("Warning: \(lines) of the history could not be read as changes and \(history.unreadableLines == 1 ? "was" : "were") left out\n")
        }
        if json {
            context.output.write(bytes: historyRenderer.json(history, limit: limit))
        } else {
            write(historyRenderer.list(history, limit: limit))
            if history.entries.isEmpty, context.output.isTerminal {
                context.errorOutput.write("No changes yet. Every change to the list is kept here, and 'todo undo' takes it back.\n")
            }
        }
    }
}
