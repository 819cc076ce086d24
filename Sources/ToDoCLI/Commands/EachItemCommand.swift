import ToDoCore

/// A command that does one thing to each item its references name (`check`, `uncheck`, `remove`),
/// all in one transaction: a bad reference or a refusal leaves everything as it was.
protocol EachItemCommand: ListCommand {
    var references: [ItemReference] { get }
    var json: Bool { get }
    init(references: [ItemReference], json: Bool)
    /// Does the command's thing to `item`: the item as it is now, and the verb that says what happened.
    static func change(_ manager: inout ItemManager, _ item: ToDoItem) throws -> (ToDoItem, String)
}

extension EachItemCommand {
    init(_ arguments: CommandArguments) throws(UsageError) {
        self.init(references: try arguments.references(), json: arguments.flag(CommonOptions.json))
    }

    func run(with runner: CommandRunner) throws {
        let results = try runner.store.update(command: runner.arguments) { manager in
            try manager.resolve(references).map { item in try Self.change(&manager, item) }
        }
        if json {
            runner.renderer.writeJSON([results.map(\.0)], to: runner.context.output)
        } else {
            runner.write(results.map { item, verb in "\(verb) \(runner.renderer.summary(item))\n" }.joined())
        }
    }
}
