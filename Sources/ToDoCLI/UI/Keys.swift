/// A key as `todo ui` reads it from the terminal's bytes.
enum Key: Equatable {
    /// A character typed: a letter, a digit, a space, an emoji.
    case character(Character)
    /// Ctrl and a letter (`control("c")` is Ctrl-C), other than those named below.
    case control(Character)
    /// Alt and a character (Esc, then the character): no key of todo ui's.
    case alt(Character)
    /// Text pasted (bracketed paste): typed into a line as it is, never read as keys.
    case paste(String)
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, home, end, pageUp, pageDown

    /// The keys in `bytes`, as a terminal sends them (xterm's and VT100's sequences; tmux's too).
    /// An escape alone, with nothing after it in the same read, is the Esc key.
    static func keys(in bytes: [UInt8]) -> [Key] {
        var keys: [Key] = [], index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                let (key, length) = escapeSequence(bytes[index...])
                keys.append(key)
                index += length
                continue
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x09: keys.append(.tab)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x01...0x1A: keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
            case 0x00, 0x1C...0x1F: break
            default:
                // One character, however many bytes it takes in UTF-8.
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                let end = min(index + length, bytes.count)
                if let character = String(decoding: bytes[index..<end], as: UTF8.self).first {
                    keys.append(.character(character))
                }
                index = end
                continue
            }
            index += 1
        }
        return keys
    }

    static let pasteStart = Array("\u{1B}[200~".utf8), pasteEnd = Array("\u{1B}[201~".utf8)

    /// Where `part` first starts in `bytes`, if it does.
    static func index(of part: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard part.count <= bytes.count else { return nil }
        var start = bytes.startIndex
        while start <= bytes.endIndex - part.count {
            if bytes[start..<(start + part.count)].elementsEqual(part) { return start }
            start += 1
        }
        return nil
    }

    /// Pasted bytes as text typed into a line: line breaks and tabs as spaces.
    static func pasted(_ bytes: ArraySlice<UInt8>) -> Key {
        .paste(
            String(
                String(decoding: bytes, as: UTF8.self).map {
                    $0 == "\r" || $0 == "\n" || $0 == "\r\n" || $0 == "\t" ? " " : $0
                }))
    }

    /// The key an escape sequence at the start of `bytes` names, and its length. One not known is
    /// read to its end and taken for Esc.
    private static func escapeSequence(_ bytes: ArraySlice<UInt8>) -> (Key, Int) {
        let start = bytes.startIndex
        guard bytes.count > 1 else { return (.escape, 1) }
        guard bytes[start + 1] == UInt8(ascii: "[") || bytes[start + 1] == UInt8(ascii: "O") else {
            let next = bytes[start + 1]
            guard (0x20..<0x7F).contains(next) else { return (.escape, 1) }
            return (.alt(Character(Unicode.Scalar(next))), 2)
        }
        if bytes.starts(with: pasteStart) {
            // Everything up to the paste's end (`KeyReader` joins a paste that spans reads).
            let textStart = start + pasteStart.count
            let end = index(of: pasteEnd, in: bytes[textStart...]) ?? bytes.endIndex
            return (pasted(bytes[textStart..<end]), min(end + pasteEnd.count, bytes.endIndex) - start)
        }
        // The parameters, then one final byte from @ to ~.
        var end = start + 2
        while end < bytes.endIndex, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.endIndex else { return (.escape, bytes.count) }
        let length = end - start + 1
        let parameters = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
        switch (bytes[end], parameters.split(separator: ";").first.map(String.init) ?? "") {
        case (UInt8(ascii: "A"), _): return (.up, length)
        case (UInt8(ascii: "B"), _): return (.down, length)
        case (UInt8(ascii: "C"), _): return (.right, length)
        case (UInt8(ascii: "D"), _): return (.left, length)
        case (UInt8(ascii: "H"), _): return (.home, length)
        case (UInt8(ascii: "F"), _): return (.end, length)
        case (UInt8(ascii: "Z"), _): return (.backTab, length)
        case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return (.home, length)
        case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return (.end, length)
        case (UInt8(ascii: "~"), "3"): return (.delete, length)
        case (UInt8(ascii: "~"), "5"): return (.pageUp, length)
        case (UInt8(ascii: "~"), "6"): return (.pageDown, length)
        default: return (.escape, length)
        }
    }
}

/// The line typed at `todo ui`'s prompts, with the cursor in it: the keys of a shell's line.
struct LineEditor: Equatable {
    private(set) var characters: [Character]
    /// Where the cursor is, before `characters[cursor]`.
    private(set) var cursor: Int

    init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    var text: String { String(characters) }

    /// Applies an editing key; `false` for a key it does not edit with (Enter, Esc).
    mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
        case .backspace, .control("h"):
            guard cursor > 0 else { break }
            cursor -= 1
            characters.remove(at: cursor)
        case .delete, .control("d"):
            if cursor < characters.count { characters.remove(at: cursor) }
        case .left, .control("b"): cursor = max(cursor - 1, 0)
        case .right, .control("f"): cursor = min(cursor + 1, characters.count)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .control("u"):
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .control("k"): characters.removeSubrange(cursor...)
        case .control("w"):
            // The word before the cursor, and the spaces after it.
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default: return false
        }
        return true
    }

    /// The line as it fits `width` columns after `prompt`, scrolled so that the cursor shows, and
    /// the column the cursor is at (from 0).
    func shown(after prompt: String, width: Int) -> (text: String, cursorColumn: Int) {
        let promptWidth = DisplayWidth.of(prompt)
        let room = max(width - promptWidth - 1, 1)
        // The first character shown: the line's start, or as far along as keeps the cursor in view.
        var first = 0, widthToCursor = characters[..<cursor].reduce(0) { $0 + DisplayWidth.of($1) }
        while widthToCursor > room, first < cursor {
            widthToCursor -= DisplayWidth.of(characters[first])
            first += 1
        }
        var shown = "", shownWidth = 0
        for character in characters[first...] {
            let next = DisplayWidth.of(character)
            if shownWidth + next > room { break }
            shown.append(character)
            shownWidth += next
        }
        return (TerminalText.printable(prompt + shown), promptWidth + widthToCursor)
    }
}

/// Splits a line typed at a prompt into words as a shell does: at spaces, with '…' and "…"
/// keeping spaces in a word and a backslash the character after it; `nil` when a quote is left
/// open or a backslash ends the line (what the screen says, not an error of the command line's).
enum ShellWords {
    static func split(_ line: String) -> [String]? {
        var words: [String] = [], word = "", inWord = false
        var quote: Character?, escaped = false
        for character in line {
            if escaped {
                word.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\", open == "\"" {
                    escaped = true
                } else {
                    word.append(character)
                }
            } else if character == " " || character == "\t" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                inWord = true
                switch character {
                case "'", "\"": quote = character
                case "\\": escaped = true
                default: word.append(character)
                }
            }
        }
        guard quote == nil, !escaped else { return nil }
        if inWord { words.append(word) }
        return words
    }

    /// `word` as a shell would need it typed: as it is when it holds only letters, digits and
    /// `@%+=:,./-_` (todo's words: `due:fri`, `+home`), else, or `always`, in single quotes.
    static func quoted(_ word: String, always: Bool = false) -> String {
        let plain = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "@%+=:,./-_".contains($0) }
        guard always || !plain else { return word }
        return "'" + word.replacingText("'", with: "'\\''") + "'"
    }
}

/// Reads keys from the terminal read by read: a paste longer than one read (4 KB) is held until
/// its end comes, so that none of it is taken for keys; at most `pasteLimit` bytes are kept.
struct KeyReader {
    /// While a paste is open: its text so far (what follows the limit is dropped until its end).
    private var openPaste: [UInt8]?
    /// The paste's last bytes read, not yet taken into its text: its end may have begun there.
    private var pending: [UInt8] = []
    static let pasteLimit = 1 << 20

    mutating func keys(in bytes: [UInt8]) -> [Key] {
        var keys: [Key] = [], rest = bytes[...]
        if openPaste != nil {
            guard let after = continuePaste(with: rest, into: &keys) else { return keys }
            rest = after
        }
        guard let start = Key.index(of: Key.pasteStart, in: rest),
            Key.index(of: Key.pasteEnd, in: rest[(start + Key.pasteStart.count)...]) == nil
        else { return keys + Key.keys(in: Array(rest)) }
        keys += Key.keys(in: Array(rest[..<start]))
        openPaste = []
        _ = continuePaste(with: rest[(start + Key.pasteStart.count)...], into: &keys)
        return keys
    }

    /// Takes `bytes` into the open paste, each byte looked at once: when its end is among them, the
    /// paste becomes a key and the bytes after its end are returned; else `nil`.
    private mutating func continuePaste(with bytes: ArraySlice<UInt8>, into keys: inout [Key]) -> ArraySlice<UInt8>? {
        let searched = pending + bytes
        let end = Key.index(of: Key.pasteEnd, in: searched[...])
        let text = end.map { searched[..<$0] } ?? searched.dropLast(Key.pasteEnd.count - 1)
        let room = Self.pasteLimit - (openPaste?.count ?? 0)
        openPaste?.append(contentsOf: text.prefix(room))
        guard let end, let paste = openPaste else {
            pending = Array(searched[text.endIndex...])
            return nil
        }
        keys.append(Key.pasted(paste[...]))
        (openPaste, pending) = (nil, [])
        return searched[(end + Key.pasteEnd.count)...]
    }
}
