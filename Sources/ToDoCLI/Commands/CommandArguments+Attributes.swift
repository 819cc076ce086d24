import ToDoCore
import ToDoModel

/// Reading Taskwarrior's attribute words (`AttributeWords`) beside the options that say the same.
extension CommandArguments {
    /// The positionals from `offset` on, their attribute words read as the command reads them.
    func attributeWords(droppingFirst offset: Int = 0) throws(CommandError) -> AttributeWords {
        let words = Array(scanned.positionals.dropFirst(offset))
        let literalStart = scanned.literalStart.map { max($0 - offset, 0) }
        return try AttributeWords(
            words, literalStart: literalStart, reads: spec.attributeWords != .none,
            addsAnItem: spec.attributeWords == .add, refusing: attributeError)
    }

    /// The error for an attribute word, with the way to keep such a word as text.
    func attributeError(_ word: String, _ message: String) -> CommandError {
        self.error(
            "cannot read '\(TerminalText.printable(word))': \(message)",
            detail: spec.attributeWords == .filter
                ? nil
                : "A title with such a word goes after '--': todo \(spec.name) -- \"\(TerminalText.printable(word))\"")
    }

    /// The value `option` or an attribute word gives, read by `read`; giving both is an error.
    func either<Value>(
        _ option: OptionSpec, _ optionValue: Value?, or attribute: AttributeWords.Value?,
        _ read: (AttributeWords.Value) throws(CommandError) -> Value?
    ) throws(CommandError) -> Value? {
        guard let attribute else { return optionValue }
        guard value(option) == nil, !flag(option) else {
            throw error(
                "'\(TerminalText.printable(attribute.word))' and '\(option.flag)' both give the \(option.name); give one"
            )
        }
        return try read(attribute)
    }

    /// A date an attribute word gives (`due:fri`): the day or the minute; `nil` for an empty value.
    func date(_ attribute: AttributeWords.Value) throws(CommandError) -> ItemDate? {
        guard let span = try span(attribute) else { return nil }
        return try itemDate(of: span)
    }

    /// The span of time an attribute word's date names; `nil` for an empty value.
    func span(_ attribute: AttributeWords.Value) throws(CommandError) -> Range<Double>? {
        guard !attribute.value.isEmpty else { return nil }
        return try dateSpan(attribute.value, in: attribute.word)
    }

    /// What an edit does to a field an option or an attribute word changes (`due:fri` sets it,
    /// `due:` alone removes it), read by `read`; giving both is an error.
    func change<Value>(
        _ option: OptionSpec, _ current: FieldChange<Value>, or attribute: AttributeWords.Value?,
        _ read: (AttributeWords.Value) throws(CommandError) -> Value?
    ) throws(CommandError) -> FieldChange<Value> {
        try either(option, current, or: attribute) { value throws(CommandError) in
            try read(value).map { .set($0) } ?? .remove
        } ?? .keep
    }

    /// The priority of `pri:H`: `.some(nil)` for an empty value or `none`.
    func priority(_ attribute: AttributeWords.Value) throws(CommandError) -> Int?? {
        if attribute.value.isEmpty { return .some(nil) }
        guard let priority = PriorityLevel.priority(typed: attribute.value) else {
            throw attributeError(
                attribute.word,
                "use H, M or L (high, medium, low), 1 (highest) to 9 (lowest), a todo.txt letter A to Z, or none")
        }
        return .some(priority)
    }

    /// The project of `project:work.admin`; `nil` for an empty value.
    func project(_ attribute: AttributeWords.Value) throws(CommandError) -> String? {
        guard !attribute.value.isEmpty else { return nil }
        guard ItemField.isOneLine(attribute.value), !Whitespace.trimmingSpaces(attribute.value).isEmpty else {
            throw attributeError(attribute.word, "a project is one line of text, as work.admin")
        }
        return attribute.value
    }

    /// The repeat of `recur:weekly` (Taskwarrior's `2w`, `biweekly`, `quarterly`, or what `--repeat`
    /// takes), as RRULE text; `nil` for an empty value.
    func repeatRule(_ attribute: AttributeWords.Value) throws(CommandError) -> String? {
        guard !attribute.value.isEmpty else { return nil }
        if let rule = try? RepeatRule.typed(attribute.value).text { return rule }
        if let rule = TaskwarriorFormat.rule(ofRecurrence: attribute.value) { return rule }
        throw attributeError(
            attribute.word, "use daily, weekdays, weekly, monthly, yearly, or a number and a unit as 2w, 3d, 6mo, 1y")
    }

    /// The items `depends:3,5` names.
    func references(_ attribute: AttributeWords.Value) throws(CommandError) -> [ItemReference] {
        guard !attribute.value.isEmpty else { throw attributeError(attribute.word, "name the items, as depends:3,5") }
        return try references(in: [attribute.value])
    }

    /// Refuses the attribute words the command does not read, each with what to use instead.
    func refuse(_ words: AttributeWords, _ refused: [AttributeWords.Attribute: String]) throws(CommandError) {
        for (attribute, value) in words.values {
            if let why = refused[attribute] { throw attributeError(value.word, why) }
        }
    }
}
