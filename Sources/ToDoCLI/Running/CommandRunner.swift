import ToDoCore
import ToDoModel

/// What a command that works on the list works with: the store, what shows items, the settings,
/// and the command line as the history records it.
struct CommandRunner {
    let context: Context
    let store: JSONFileStore
    let renderer: ItemRenderer
    let settings: Settings
    /// The command line, without the program name and the global options, as the history records it.
    var arguments: [String] = []

    /// What looks addresses up; asked for only when one is to be, so that a bad geocoder setting
    /// stops only a command that would use it.
    var addressLookup: AddressLookup {
        get throws(CommandError) {
            AddressLookup(
                geocoderURL: try settings.geocoderURL, transport: context.transport,
                timeout: try settings.httpTimeout ?? AddressLookup.defaultTimeout, errorOutput: context.errorOutput)
        }
    }

    var historyRenderer: HistoryRenderer { HistoryRenderer(items: renderer) }

    /// The list as it is, to read; left for the process's exit to free (`Context.keepUntilExit`).
    func load() throws -> ItemManager {
        let manager = try store.load()
        context.keepUntilExit(manager)
        return manager
    }

    /// Says so when an item starts after it is due: allowed (a date may be moved later), but
    /// likely a slip.
    func warnIfStartsAfterDue(_ item: ToDoItem) {
        guard item.startsAfterItsDue(dates: renderer.dates), let start = item.start, let due = item.due else { return }
        context.errorOutput.write(
            "Warning: \(item.number) starts \(renderer.dayAndDate(start)) but is due earlier, \(renderer.dayAndDate(due))\n"
        )
    }

    func write(_ text: String) {
        context.output.write(text)
    }

    /// `todo undo` and `todo redo`: takes the changes back in one transaction and prints each.
    func undo(_ selection: UndoSelection, json: Bool) throws {
        let (targets, history) = try store.undo(selection, command: arguments)
        if json {
            context.output.write(bytes: historyRenderer.revertedJSON(targets))
        } else {
            write(historyRenderer.reverted(targets, in: history))
        }
    }
}
