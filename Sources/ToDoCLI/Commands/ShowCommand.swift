import ToDoCore

/// `todo show`: every field of one item.
struct ShowCommand: ListCommand {
    static let spec = CommandSpec(
        name: "show", summary: "Show every field of one item.", arguments: [CommonOptions.reference],
        options: [CommonOptions.json], argumentCompletion: .items(.all))

    var reference: ItemReference
    var json = false

    init(reference: ItemReference, json: Bool = false) {
        self.reference = reference
        self.json = json
    }

    init(_ arguments: CommandArguments) throws(UsageError) {
        reference = try arguments.reference()
        json = arguments.flag(CommonOptions.json)
    }

    func run(with runner: CommandRunner) throws {
        let item = try runner.store.load().resolve(reference)
        runner.write(json ? runner.renderer.json(item) : runner.renderer.details(item))
    }
}
