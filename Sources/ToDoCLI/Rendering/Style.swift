import struct ToDoStorage.OutputBytes

/// Terminal decoration, or none: every method returns its text unchanged when colour is off.
struct Style {
    let isEnabled: Bool

    /// The decorations todo uses, as the escape sequences (SGR) that start them.
    enum Code: Int, CaseIterable {
        case bold, dim, red, green, yellow

        var start: String {
            switch self {
            case .bold: "\u{1B}[1m"
            case .dim: "\u{1B}[2m"
            case .red: "\u{1B}[31m"
            case .green: "\u{1B}[32m"
            case .yellow: "\u{1B}[33m"
            }
        }

        /// `start` as bytes, made once: a list writes thousands.
        var startBytes: [UInt8] { Self.starts[rawValue] }

        private static let starts = allCases.map { Array($0.start.utf8) }
    }

    /// Ends any decoration.
    static let reset: String = "\u{1B}[0m"
    private static let resetBytes = Array(reset.utf8)

    func bold(_ text: String) -> String { wrap(text, .bold) }
    func dim(_ text: String) -> String { wrap(text, .dim) }
    func red(_ text: String) -> String { wrap(text, .red) }
    func green(_ text: String) -> String { wrap(text, .green) }
    func yellow(_ text: String) -> String { wrap(text, .yellow) }

    private func wrap(_ text: String, _ code: Code) -> String {
        isEnabled && !text.isEmpty ? "\(code.start)\(text)\(Self.reset)" : text
    }

    /// Appends the UTF-8 `text` decorated as `wrap` decorates it, or plain when `code` is `nil`.
    @inline(__always)
    func append(_ text: ArraySlice<UInt8>, _ code: Code?, to output: inout OutputBytes) {
        guard isEnabled, !text.isEmpty, let code else { return output.append(text) }
        output.append(code.startBytes)
        output.append(text)
        output.append(Self.resetBytes)
    }

    func append(_ text: String, _ code: Code?, to output: inout OutputBytes) {
        guard isEnabled, !text.isEmpty, let code else { return output.append(text) }
        output.append(code.startBytes)
        output.append(text)
        output.append(Self.resetBytes)
    }

    /// Appends the digits of a number that is not negative, decorated as `append` decorates text.
    func appendNumber(_ number: Int, _ code: Code?, to output: inout OutputBytes) {
        guard isEnabled, let code else { return output.append(digitsOf: number) }
        output.append(code.startBytes)
        output.append(digitsOf: number)
        output.append(Self.resetBytes)
    }

    /// Whether to colour: `always`, `never`, or for `auto` a terminal, no `NO_COLOR` and no dumb
    /// terminal.
    static func isEnabled(_ choice: ColorChoice, outputIsTerminal: Bool, environment: [String: String]) -> Bool {
        switch choice {
        case .always: return true
        case .never: return false
        case .auto:
            return outputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        }
    }
}
