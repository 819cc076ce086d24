import ToDoCore

/// `todo help`, and `--help` after any command: help on todo, a command or a topic, or the manual page.
struct HelpCommand: ToDoCommand {
    static let man = OptionSpec(
        name: "man", valueName: nil, help: "Print the manual page, todo(1), in roff, as 'man' reads it.")

    static let spec = CommandSpec(
        name: "help", summary: "Show help for todo, one command or a topic.",
        arguments: [
            ArgumentSpec(
                name: "command", help: "The command or topic (dates, refs, exit-codes, file, environment) to explain.",
                isOptional: true)
        ],
        options: [man], argumentCompletion: .commandsAndTopics)

    enum Subject: Equatable {
        case overview
        case command(CommandSpec)
        case topic(HelpTopic)
        /// The manual page, todo(1).
        case manual
    }

    var subject: Subject

    init(subject: Subject) {
        self.subject = subject
    }

    init(_ arguments: CommandArguments) throws(CommandError) {
        let topics = try arguments.positionals(atMost: 1)
        if arguments.flag(Self.man) {
            try arguments.noPositionals()
            subject = .manual
        } else if let name = topics.first {
            if let command = try CommandRegistry.spec(matching: name) {
                subject = .command(command)
            } else if let topic = HelpTopics.topic(named: name) {
                subject = .topic(topic)
            } else {
                throw ArgumentScanner.unknownCommand(name, usage: Self.spec, orTopic: true)
            }
        } else {
            subject = .overview
        }
    }

    func run(in session: CommandSession) throws {
        let output = session.context.output
        switch subject {
        case .overview: output.write(HelpRenderer.overview())
        case .command(let command): output.write(HelpRenderer.help(for: command))
        case .topic(let topic):
            // Help works whatever the settings: a bad TODO_DATE_ORDER shows the default order.
            let order = (try? session.settings.get().dateOrder) ?? .monthFirst
            output.write(HelpRenderer.help(for: topic, dateOrder: order))
        case .manual: output.write(ManualRenderer.page())
        }
    }
}
