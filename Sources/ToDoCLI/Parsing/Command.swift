import Foundation
import ToDoCore

/// What the user asked for, parsed and validated: every date, reference, coordinate and title in it
/// is already known to be well-formed.
enum Command: Equatable {
    case add(AddRequest)
    case list(ListSection, json: Bool, query: ItemQuery = ItemQuery())
    case show(ItemReference, json: Bool)
    case check([ItemReference], json: Bool)
    case uncheck([ItemReference], json: Bool)
    case edit(EditRequest)
    case remove([ItemReference], json: Bool)
    case clear(doneOnly: Bool, confirmed: Bool)
    case export(format: ExportFormat, output: String?, query: ItemQuery = ItemQuery())
    case importItems(ImportRequest)
    case undo(JSONFileStore.UndoSelection)
    case history(limit: Int, json: Bool)
    /// `todo completion <shell>`: the script.
    case completionScript(Shell)
    /// `todo completion --items <which>`: number and title of each item, for the scripts.
    case completionItems(ListSection)
    case help(CommandSpec?)
    case helpTopic(HelpTopic)
    /// `todo help --man`: the manual page.
    case manual
    case version
}

/// Which part of the list to show.
enum ListSection: Equatable {
    case all, open, done
}

/// `todo add`: one title, or one per line of standard input, with the same fields for each.
struct AddRequest: Equatable {
    enum Titles: Equatable {
        case argument(String)
        case standardInput
    }

    var titles: Titles
    var itemDescription: String?
    var timestamp: Double?
    var location: Location?
    /// Whether to look the address up on the geocoder when no coordinate is given.
    var geocode = true
    var json = false
}

/// `todo import`: where the items come from, in which format, and whether to change anything.
struct ImportRequest: Equatable {
    enum Source: Equatable {
        case file(String)
        case standardInput
        case url(URL)
    }

    var source: Source
    var format: ImportFormat = .auto
    var dryRun = false
}

/// `todo edit`: the fields to change on one item.
struct EditRequest: Equatable {
    var reference: ItemReference
    var title: String?
    var timestamp: FieldChange<Double> = .keep
    var itemDescription: FieldChange<String> = .keep
    /// A new location (`--location`), or removing it (`--no-location`).
    var location: FieldChange<Location> = .keep
    /// Changes to the current location's address and coordinate.
    var address: FieldChange<String> = .keep
    var coordinate: FieldChange<Coordinate> = .keep
    /// Whether to look a new address up on the geocoder when no coordinate is given with it.
    var geocode = true
    var json = false

    /// The change to the item, as `ItemManager.edit(itemWithID:_:)` applies it.
    var edit: ItemEdit {
        ItemEdit(title: title, timestamp: timestamp, itemDescription: itemDescription, location: location,
                 address: address, coordinate: coordinate)
    }

    var changesNothing: Bool { edit.changesNothing }
}

/// The command and the global options that apply to it.
struct Invocation: Equatable {
    var command: Command
    var fileOption: String?
    var color: ColorChoice = .auto
    /// The command line without the global options, as the history records it.
    var commandLine: [String] = []
}

/// When to colour the output (`--color`).
enum ColorChoice: String, Equatable, CaseIterable {
    case auto, always, never
}
