import ToDoCore
import ToDoModel

/// Turns history entries into the text of `todo history`, `todo undo` and `todo redo`.
struct HistoryRenderer {
    let items: ItemRenderer

    /// How many item lines a change shows before "… and n more".
    static let shownItems = 5

    /// `Checked 3: Call Mom`: what a change did to one item. `restoring` says "Restored" rather
    /// than "Added" for an item that came back.
    func line(for change: ItemChange, restoring: Bool) -> String {
        guard let after = change.after else {
            // Neither before nor after: an item added and removed within one change.
            return change.before.map { "Removed \(items.summary($0))" } ?? "Added and removed an item"
        }
        guard let before = change.before else { return "\(restoring ? "Restored" : "Added") \(items.summary(after))" }
        let fields = change.editedFields.map(\.name)
        let edited = fields.isEmpty ? "" : " [\(fields.joined(separator: ", "))]"
        if before.done != after.done {
            return
                "\(after.done ? "Checked" : "Unchecked")\(fields.isEmpty ? "" : " and edited") \(items.summary(after))\(edited)"
        }
        return "Edited \(items.summary(after))\(edited)"
    }

    /// The item lines of a change, indented, at most `shownItems` of them unless `all`.
    func itemLines(_ changes: [ItemChange], restoring: Bool, all: Bool = false) -> String {
        let shown = all ? changes[...] : changes.prefix(Self.shownItems)
        var text = shown.map { "  \(line(for: $0, restoring: restoring))\n" }.joined()
        if shown.count < changes.count { text += "  … and \(changes.count - shown.count) more\n" }
        return text
    }

    /// What `todo undo` or `todo redo` prints for each change it took back, newest first.
    func reverted(_ targets: [HistoryEntry], in history: ChangeHistory) -> String {
        targets.map { target in
            let changes = target.itemChanges.map(\.reversed)
            guard target.kind == .undo else {
                return "Undid change \(target.number): \(whatItDid(target, in: history))\n"
                    + itemLines(changes, restoring: true, all: true)
            }
            // Taking an undo back makes again the changes it took back.
            let redone = target.reverts.map { number in
                history.entry(number).map { "change \(number): \(whatItDid($0, in: history))" } ?? "change \(number)"
            }
            return "Redid \(redone.joined(separator: "; "))\n" + itemLines(changes, restoring: false, all: true)
        }.joined()
    }

    /// What a change did, by the command that first did it: a redo made again what the changes
    /// it redid made (`todo remove 2`, not `todo redo`); an undo is `undo of` what it took back.
    func whatItDid(_ entry: HistoryEntry, in history: ChangeHistory, depth: Int = 0) -> String {
        let taken = entry.reverts.compactMap(history.entry)
        // A chain of redos of redos is bounded by the history's length; the depth bounds the work
        // on a history file edited into a loop.
        guard entry.kind != .change, taken.count == entry.reverts.count, depth < ChangeHistory.keptChanges else {
            return printable(entry.commandLine)
        }
        switch entry.kind {
        case .change: return printable(entry.commandLine)
        case .undo:
            return "undo of " + taken.map { whatItDid($0, in: history, depth: depth + 1) }.joined(separator: "; ")
        case .redo:
            let undone = taken.flatMap { $0.reverts.compactMap(history.entry) }
            guard !undone.isEmpty else { return printable(entry.commandLine) }
            return undone.map { whatItDid($0, in: history, depth: depth + 1) }.joined(separator: "; ")
        }
    }

    /// `todo history`: the latest `limit` changes, newest first, each with its items.
    func list(_ history: ChangeHistory, limit: Int) -> String {
        history.entries.suffix(limit).reversed().map { entry in
            var head = "\(entry.number)  \(entry.time.map(items.moment) ?? "-")  \(printable(entry.commandLine))"
            switch entry.kind {
            case .change: break
            case .undo: head += "  (undid \(entry.reverts.map(String.init).joined(separator: ", ")))"
            case .redo: head += "  (redid \(entry.reverts.map(String.init).joined(separator: ", ")))"
            }
            if let by = history.revertedBy[entry.number] {
                head += items.style.dim("  [taken back by \(by)]")
            }
            return head + "\n" + (entry.migration.map { "  \(Self.text(of: $0))\n" } ?? "")
                + itemLines(entry.itemChanges, restoring: entry.kind != .change)
        }.joined()
    }

    /// `Moved the file from version 1 to 2: 3 whole-day dues kept as the days they showed in America/New_York`.
    static func text(of migration: HistoryEntry.Migration) -> String {
        let dues = migration.wholeDays == 1 ? "1 whole-day due" : "\(migration.wholeDays) whole-day dues"
        return
            "Moved the file from version \(migration.fromVersion) to \(migration.toVersion): \(dues) kept as the days"
            + " they showed in \(TerminalText.printable(migration.timeZone))"
    }

    /// `todo history --json`: the changes, newest first, each with its items before and after.
    func json(_ history: ChangeHistory, limit: Int) -> [UInt8] {
        let entries: [JSONValue] = history.entries.suffix(limit).reversed().map { entry in
            Self.json(entry, items: entry.itemChanges, revertedBy: history.revertedBy[entry.number])
        }
        return JSONValue.array(entries).serialized()
    }

    /// `todo undo --json` and `todo redo --json`: each change taken back, newest first, with what
    /// taking it back did to its items (`before` and `after` the undo).
    func revertedJSON(_ targets: [HistoryEntry]) -> [UInt8] {
        let entries: [JSONValue] = targets.map { target in
            Self.json(target, items: target.itemChanges.map(\.reversed), revertedBy: nil)
        }
        return JSONValue.array(entries).serialized()
    }

    /// One change as `--json` gives it.
    private static func json(_ entry: HistoryEntry, items changes: [ItemChange], revertedBy: Int?) -> JSONValue {
        var object = JSONObject()
        object["change"] = .number(entry.number)
        object["time"] = entry.time.map { JSONValue.number($0) } ?? .null
        object["command"] = .array(entry.command.map(JSONValue.string))
        object["kind"] = .string(entry.kind.rawValue)
        object["reverts"] = .array(entry.reverts.map { JSONValue.number($0) })
        object["revertedBy"] = revertedBy.map { JSONValue.number($0) } ?? .null
        if let migration = entry.migration {
            var moved = JSONObject()
            moved["fromVersion"] = .number(migration.fromVersion)
            moved["toVersion"] = .number(migration.toVersion)
            moved["wholeDays"] = .number(migration.wholeDays)
            moved["timeZone"] = .string(migration.timeZone)
            object["migrated"] = .object(moved)
        }
        object["items"] = .array(
            changes.map { change in
                var item = JSONObject()
                item["before"] = change.before?.json ?? .null
                item["after"] = change.after?.json ?? .null
                return .object(item)
            })
        return .object(object)
    }

    private func printable(_ text: String) -> String {
        TerminalText.printable(text)
    }
}
