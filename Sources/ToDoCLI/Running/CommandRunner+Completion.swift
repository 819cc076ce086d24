import ToDoCore

extension CommandRunner {
    /// `todo completion --items`: each item's number, a tab and its title, open items first. A
    /// title's tabs and control characters would break the line, so they are shown as text.
    func completionItems(_ section: ListSection) throws {
        let manager = try store.load()
        let items = (section == .done ? [] : manager.toDoItems) + (section == .open ? [] : manager.doneItems)
        write(items.map { "\($0.number)\t\(TerminalText.printable($0.title))\n" }.joined())
    }
}
