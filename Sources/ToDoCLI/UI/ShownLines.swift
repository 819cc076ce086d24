import enum ToDoStorage.TextLines

/// A listing command's output as `todo ui` shows it: its lines as written (colours and all), and
/// the item each row shows, read from the row itself (`3 [ ] Call Mom`), so that the screen is
/// the command's own output and the keys act on the numbers it shows.
struct ShownLines {
    /// How a row marks its item.
    enum Mark: Equatable {
        case open, done, inProgress
    }

    struct Row: Equatable {
        var number: Int
        var mark: Mark
    }

    private let text: [UInt8]
    private let ranges: [Range<Int>]
    /// The item of each line; `nil` for a heading or a blank line.
    let rows: [Row?]
    /// The lines that show an item, in order: what the selection moves through.
    let selectable: [Int]

    init(_ output: [UInt8]) {
        text = output
        let ranges = TextLines.ranges(in: output)
        self.ranges = ranges
        let rows = ranges.map { Self.row(in: output[$0]) }
        self.rows = rows
        selectable = rows.indices.filter { rows[$0] != nil }
    }

    var count: Int { ranges.count }

    /// Line `index` as written, with its colours.
    func line(_ index: Int) -> String {
        String(decoding: text[ranges[index]], as: UTF8.self)
    }

    /// Line `index` without its colours.
    func plainLine(_ index: Int) -> String {
        ScreenText.plain(text[ranges[index]])
    }

    /// The number and mark a list's row starts with: spaces, the number, a space, `[ ]`, `[x]` or
    /// `[>]`, any of them coloured.
    private static func row(in line: ArraySlice<UInt8>) -> Row? {
        var index = line.startIndex
        func skipDecorations() {
            while index < line.endIndex, line[index] == 0x1B {
                while index < line.endIndex, line[index] != UInt8(ascii: "m") { index += 1 }
                index += 1
            }
        }
        while index < line.endIndex, line[index] == UInt8(ascii: " ") { index += 1 }
        skipDecorations()
        var number = 0, digits = 0
        while index < line.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[index]), digits < 18 {
            number = number * 10 + Int(line[index] - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        skipDecorations()
        guard digits > 0, index < line.endIndex, line[index] == UInt8(ascii: " ") else { return nil }
        index += 1
        skipDecorations()
        guard index + 2 < line.endIndex, line[index] == UInt8(ascii: "["), line[index + 2] == UInt8(ascii: "]") else {
            return nil
        }
        switch line[index + 1] {
        case UInt8(ascii: " "): return Row(number: number, mark: .open)
        case UInt8(ascii: "x"): return Row(number: number, mark: .done)
        case UInt8(ascii: ">"): return Row(number: number, mark: .inProgress)
        default: return nil
        }
    }
}

/// Text as the screen shows it.
enum ScreenText {
    /// `bytes` without the escape sequences that colour them (SGR).
    static func plain(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(0x1B) else { return String(decoding: bytes, as: UTF8.self) }
        var kept: [UInt8] = [], index = bytes.startIndex
        kept.reserveCapacity(bytes.count)
        while index < bytes.endIndex {
            if bytes[index] == 0x1B {
                while index < bytes.endIndex, bytes[index] != UInt8(ascii: "m") { index += 1 }
            } else {
                kept.append(bytes[index])
            }
            index += 1
        }
        return String(decoding: kept, as: UTF8.self)
    }

    /// `text` (with colours) as it fits `width` columns: as it is when it fits, else cut without
    /// its colours.
    static func fitted(_ text: String, plain: String, to width: Int) -> String {
        DisplayWidth.of(plain) <= width ? text : DisplayWidth.cut(plain, to: width).text
    }

    /// Lines as they fit `width` columns, a long one wrapped onto the next rows (without its
    /// colours): a page (an item's description, a sync's report) is read whole.
    static func wrapped(_ lines: [String], to width: Int) -> [String] {
        var wrapped: [String] = []
        for line in lines {
            let plain = ScreenText.plain(ArraySlice(line.utf8))
            guard DisplayWidth.of(plain) > width, width > 1 else {
                wrapped.append(line)
                continue
            }
            var row: [Character] = [], rowWidth = 0
            for character in plain {
                let characterWidth = DisplayWidth.of(character)
                if rowWidth + characterWidth > width {
                    // At the last space of the row's second half, else where the row is full.
                    if let space = row.lastIndex(of: " "), space >= row.count / 2 {
                        wrapped.append(String(row[..<space]))
                        row = Array(row[(space + 1)...])
                    } else {
                        wrapped.append(String(row))
                        row = []
                    }
                    rowWidth = row.reduce(0) { $0 + DisplayWidth.of($1) }
                }
                row.append(character)
                rowWidth += characterWidth
            }
            wrapped.append(String(row))
        }
        return wrapped
    }

    /// `text`, without colours, cut or padded with spaces to exactly `width` columns.
    static func padded(_ text: String, to width: Int) -> String {
        let cut = DisplayWidth.cut(text, to: width)
        return cut.text + String(repeating: " ", count: max(width - cut.width, 0))
    }
}

/// What `todo ui` writes to the terminal: only the rows that differ from what it shows already,
/// so that moving the selection writes two rows, not a screen.
struct ScreenPainter {
    private var shown: [String] = []
    private var cursorShown = false

    static let clear = "\u{1B}[H\u{1B}[2J"
    static let reverse = "\u{1B}[7m", bold = "\u{1B}[1m", red = "\u{1B}[31m", reset = "\u{1B}[0m"

    /// The bytes that make the screen show `rows`, with the cursor at `cursor` (row and column,
    /// from 0) or hidden; `whole` clears the screen first (after a resize, or Ctrl-L).
    mutating func paint(_ rows: [String], cursor: (row: Int, column: Int)?, whole: Bool) -> [UInt8] {
        var out = ""
        if whole || shown.count != rows.count {
            out += Self.clear
            shown = Array(repeating: "", count: rows.count)
        }
        for (index, row) in rows.enumerated() where row != shown[index] {
            out += "\u{1B}[\(index + 1);1H" + row + Self.reset + "\u{1B}[K"
        }
        shown = rows
        if let cursor {
            out += "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H" + (cursorShown && !whole ? "" : "\u{1B}[?25h")
            cursorShown = true
        } else if cursorShown || whole {
            out += "\u{1B}[?25l"
            cursorShown = false
        }
        return Array(out.utf8)
    }
}
