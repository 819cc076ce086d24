import ToDoCore
import ToDoModel

/// `todo edit`: changes some fields of one item.
struct EditCommand: ListCommand {
    static let title = OptionSpec(name: "title", valueName: "title", help: "A new title.")
    static let noDue = OptionSpec(name: "no-due", valueName: nil, help: "Remove the due date.")
    static let noDescription = OptionSpec(name: "no-description", valueName: nil, help: "Remove the description.")
    static let location = OptionSpec(
        name: "location", valueName: "name",
        help: "A new place, with the address and coordinate given here (else none: the echo says what went).")
    static let noLocation = OptionSpec(name: "no-location", valueName: nil, help: "Remove the location.")
    static let address = OptionSpec(name: "address", valueName: "text", help: "A new address for the location.")
    static let noAddress = OptionSpec(name: "no-address", valueName: nil, help: "Remove the location's address.")
    static let coordinate = OptionSpec(
        name: "coordinate", valueName: "lat,lon", help: "A new coordinate for the location.")
    static let noCoordinate = OptionSpec(
        name: "no-coordinate", valueName: nil, help: "Remove the location's coordinate.")
    static let noParent = OptionSpec(name: "no-parent", valueName: nil, help: "Make it a task of its own again.")
    static let noStart = OptionSpec(name: "no-start", valueName: nil, help: "Remove the start date.")
    static let noRepeat = OptionSpec(name: "no-repeat", valueName: nil, help: "Stop repeating; the due date stays.")
    static let noRemind = OptionSpec(name: "no-remind", valueName: nil, help: "Remove every reminder.")
    static let noPriority = OptionSpec(name: "no-priority", valueName: nil, help: "Remove the priority.")
    static let tag = OptionSpec(
        name: "tag", valueName: "tag", help: "Add a tag, one word; repeat for more.", completion: .tags, repeats: true)
    static let untag = OptionSpec(
        name: "untag", valueName: "tag", help: "Remove a tag (any case); repeat for more.",
        completion: .tags, repeats: true)
    static let noTags = OptionSpec(name: "no-tags", valueName: nil, help: "Remove every tag (before adding any --tag).")

    /// `--no-url`: one for each text field (`CommonOptions.texts`).
    static let noTexts = ItemField.texts.map {
        OptionSpec(name: "no-" + $0.option, valueName: nil, help: "Remove the \($0.name).")
    }

    static let spec = CommandSpec(
        name: "edit", summary: "Change items' fields.",
        arguments: [
            CommonOptions.references,
            ArgumentSpec(
                name: "word",
                help:
                    "Taskwarrior's words (due:fri, pri:H, +tag, -tag, project:home); any other words are the new title.",
                isOptional: true, repeats: true)
        ],
        options: [
            title, CommonOptions.due, noDue, CommonOptions.description, noDescription, location, noLocation,
            address, noAddress, coordinate, noCoordinate, CommonOptions.priority, noPriority, tag, untag, noTags,
            CommonOptions.start, noStart, CommonOptions.parent, noParent, CommonOptions.repeatRule, noRepeat,
            CommonOptions.remind, noRemind
        ]
            + zip(CommonOptions.texts, noTexts).flatMap { [$0, $1] } + [CommonOptions.noGeocode, CommonOptions.json],
        exclusiveOptions: [
            [CommonOptions.due, noDue], [CommonOptions.description, noDescription], [location, noLocation],
            [address, noAddress, noLocation], [coordinate, noCoordinate, noLocation],
            [CommonOptions.priority, noPriority], [untag, noTags], [CommonOptions.start, noStart],
            [CommonOptions.parent, noParent],
            [CommonOptions.repeatRule, noRepeat], [CommonOptions.remind, noRemind]
        ] + zip(CommonOptions.texts, noTexts).map { [$0, $1] },
        discussion: """
            Several items (1-3, 4,6, or numbers one after another) get the same changes, in one
            transaction. Taskwarrior's words change fields too: todo mod 1 due:fri pri:H +work -home
            project:work.admin; a word with nothing after its colon removes the field (due:). Other
            words are the new title, as --title gives it (one item only). --remind gives the item's
            reminders anew (one it has at the same time keeps what a phone gave it); --no-remind
            removes them.
            An open item may not be edited into the same content as another open item. A new --address
            without --coordinate is looked up on the geocoder (TODO_GEOCODER_URL); if that fails, the
            coordinate stays as it was (a new --location gets none) and a warning says why.
            """,
        argumentCompletion: .items(.all), aliases: ["mod", "modify"], changesList: true, attributeWords: .edit)

    var references: [ItemReference]
    /// The fields to change, as `ItemManager.edit(itemWithID:_:)` applies them.
    var edit = ItemEdit()
    /// Whether to look a new address up on the geocoder when no coordinate is given with it.
    /// The new parent, by ref: resolved in the transaction.
    var parent: FieldChange<ItemReference> = .keep
    /// The items that become subtasks of the one edited (Taskwarrior's `depends:`).
    var subtasks: [ItemReference] = []
    var geocode = true
    var json = false

    init(
        reference: ItemReference, edit: ItemEdit = ItemEdit(), parent: FieldChange<ItemReference> = .keep,
        geocode: Bool = true, json: Bool = false
    ) {
        self.init(references: [reference], edit: edit, parent: parent, geocode: geocode, json: json)
    }

    init(
        references: [ItemReference], edit: ItemEdit = ItemEdit(), parent: FieldChange<ItemReference> = .keep,
        geocode: Bool = true, json: Bool = false
    ) {
        self.references = references
        self.edit = edit
        self.parent = parent
        self.geocode = geocode
        self.json = json
    }

    init(_ arguments: CommandArguments) throws(CommandError) {
        let words = try arguments.positionals(atLeast: 1)
        // The first word names items; so does each word after it made of numbers alone (`1 3`, `4-6`).
        // Words after `--` are title.
        let numbered = words.dropFirst().prefix { CommandArguments.isNumberList($0) }.count
        let refCount = 1 + min(numbered, max((arguments.scanned.literalStart ?? words.count) - 1, 0))
        references = try arguments.references(in: Array(words.prefix(refCount)))
        let attributes = try arguments.attributeWords(droppingFirst: refCount)
        try arguments.refuse(
            attributes,
            [
                .status: "todo check, uncheck, start and stop change it",
                .dueBefore: "give the due with due:", .dueBy: "give the due with due:",
                .dueAfter: "give the due with due:"
            ])
        geocode = !arguments.flag(CommonOptions.noGeocode)
        json = arguments.flag(CommonOptions.json)
        if let title = arguments.value(Self.title) { edit.title = try arguments.title(title) }
        if !attributes.words.isEmpty {
            guard edit.title == nil else {
                throw arguments.error(
                    "'\(attributes.words.joined(separator: " "))' would be the title, and '--title' gives one too")
            }
            edit.title = try arguments.title(attributes.words.joined(separator: " "))
        }
        if edit.title != nil, references.count > 1 {
            throw arguments.error("a new title is for one item; \(references.count) are named")
        }
        edit.due = arguments.change(try arguments.dueDate(), removedBy: Self.noDue)
        edit.due = try arguments.change(CommonOptions.due, edit.due, or: attributes.value(.due), arguments.date)
        edit.repeatRule = arguments.change(try arguments.repeatRule(CommonOptions.repeatRule), removedBy: Self.noRepeat)
        edit.repeatRule = try arguments.change(
            CommonOptions.repeatRule, edit.repeatRule, or: attributes.value(.recur), arguments.repeatRule)
        edit.itemDescription = arguments.textChange(CommonOptions.description, removedBy: Self.noDescription)
        if let location = try arguments.location(
            name: Self.location, address: Self.address, coordinate: Self.coordinate)
        {
            edit.location = .set(location)
        } else {
            edit.location = arguments.change(nil, removedBy: Self.noLocation)
            edit.address = arguments.change(arguments.value(Self.address), removedBy: Self.noAddress)
            edit.coordinate = arguments.change(try arguments.coordinate(Self.coordinate), removedBy: Self.noCoordinate)
        }
        if let priority = try arguments.either(
            CommonOptions.priority, try arguments.priority(CommonOptions.priority),
            or: attributes.value(.priority), arguments.priority)
        {
            edit.priority = priority.map { .set($0) } ?? .remove
        } else if arguments.flag(Self.noPriority) {
            edit.priority = .remove
        }
        edit.start = arguments.change(try arguments.startDate(), removedBy: Self.noStart)
        edit.start = try arguments.change(CommonOptions.start, edit.start, or: attributes.value(.start), arguments.date)
        for (field, (option, noOption)) in zip(ItemField.texts, zip(CommonOptions.texts, Self.noTexts)) {
            let change = arguments.textChange(option, removedBy: noOption)
            if change != .keep { edit.texts[field] = change }
        }
        // `--list default` moves the items to the default list; a name is kept without spaces at its ends.
        if case .set(let list)? = edit.texts[.list] {
            edit.texts[.list] = ListName.stored(list).map { .set($0) } ?? .remove
        }
        if let project = attributes.value(.project) {
            edit.texts[.project] = try arguments.change(
                CommonOptions.project, edit.texts[.project] ?? .keep, or: project, arguments.project)
        }
        parent = arguments.change(try arguments.reference(CommonOptions.parent), removedBy: Self.noParent)
        if let depends = attributes.value(.depends) {
            guard references.count == 1 else {
                throw arguments.attributeError(depends.word, "name one item to give subtasks")
            }
            subtasks = try arguments.references(depends)
        }
        edit.addedTags = try arguments.tags(Self.tag) + attributes.addedTags
        edit.removedTags = try arguments.tags(Self.untag) + attributes.removedTags
        edit.clearsTags = arguments.flag(Self.noTags)
        edit.alarms = arguments.change(try arguments.reminders(), removedBy: Self.noRemind)
        if edit.changesNothing, parent == .keep, subtasks.isEmpty {
            throw arguments.error(
                "nothing to change; give at least one option, as --title or --due, or a word, as due:fri")
        }
    }

    func run(with runner: CommandRunner) throws {
        var edit = edit
        if geocode {
            if case .set(var location) = edit.location, let address = location.address, location.coordinate == nil {
                location.coordinate = try runner.addressLookup.coordinate(
                    for: address, otherwise: "saved without a coordinate")
                edit.location = .set(location)
            } else if case .set(let address) = edit.address, edit.coordinate == .keep,
                // Items without a place refuse the change anyway: nothing to look up.
                (try? runner.load().resolve(references))?.contains(where: { $0.location != nil }) == true
            {
                if let coordinate = try runner.addressLookup.coordinate(
                    for: address, otherwise: "the coordinate was left as it was")
                {
                    edit.coordinate = .set(coordinate)
                }
            }
        }
        let (results, subtaskNumbers) = try runner.store.update(command: runner.arguments) { manager in
            let items = try manager.resolve(references)
            var edit = edit
            switch parent {
            case .keep: break
            case .remove: edit.parent = .remove
            case .set(let reference): edit.parent = .set(try manager.resolve(reference).id)
            }
            do {
                let results = try items.map { item throws(ItemManagerError) in
                    (before: item, edited: try manager.edit(itemWithID: item.id, edit, repeatGiven: .typed))
                }
                // Taskwarrior's `depends:`: what the item waits for is done as its subtasks.
                let subtasks = try manager.resolve(subtasks)
                if let parent = items.first, !subtasks.isEmpty {
                    try manager.makeSubtasks(withIDs: subtasks.map(\.id), of: parent.id)
                }
                return (results, subtasks.map(\.number))
            } catch ItemManagerError.noLocation(let item) {
                // On the command line, the way out is an option to give.
                throw CommandError(
                    message: "item \(item.number) has no location; give '--location <name>' too", command: Self.spec)
            }
        }
        for result in results where result.edited != result.before { runner.warnIfStartsAfterDue(result.edited) }
        if json {
            runner.write(
                results.count == 1 && references.count == 1
                    ? runner.renderer.json(results[0].edited)
                    : String(
                        decoding: JSONValue.array(results.map(\.edited.json)).serializedOneElementPerLine(),
                        as: UTF8.self))
            return
        }
        var lines = ""
        // Only subtasks given (`depends:`): the item itself was not to change.
        for (before, edited) in results where !(edit.changesNothing && parent == .keep) {
            if edited != before {
                lines += "Edited \(runner.renderer.summary(edited))\n" + removedWithThePlace(before, edited)
            } else {
                lines += "Unchanged \(runner.renderer.summary(edited)): it already has these values\n"
            }
        }
        if !subtaskNumbers.isEmpty {
            lines += "  Its subtasks now: \(subtaskNumbers.map(String.init).joined(separator: ", "))\n"
        }
        runner.write(lines)
    }

    /// `--location` names a new place, so the old place's address and coordinate go unless given
    /// again; the echo says which went, since the summary line does not show them.
    private func removedWithThePlace(_ before: ToDoItem, _ edited: ToDoItem) -> String {
        guard case .set = edit.location, let old = before.location else { return "" }
        var removed: [String] = []
        if let address = old.address, edited.location?.address == nil {
            removed.append("address \"\(TerminalText.printable(address))\"")
        }
        if let coordinate = old.coordinate, edited.location?.coordinate == nil {
            removed.append("coordinate \(ItemRenderer.text(of: coordinate))")
        }
        guard !removed.isEmpty else { return "" }
        return
            "  Removed with the old place: \(removed.joined(separator: " and ")); give --address or --coordinate with --location to keep them\n"
    }
}
