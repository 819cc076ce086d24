import ToDoCore
import ToDoModel

extension CommandArguments {
    /// The reminders `--remind` gives, one per time it is given; `nil` when it is not. Each is a
    /// time before the due (`15m`, `1h`, `2d`, `1w`, `1h30m`, `0m` at the due), or a date and a
    /// time in any form `--due` takes (a day alone is refused: a reminder rings at a time).
    func reminders() throws(CommandError) -> [Alarm]? {
        let texts = values(CommonOptions.remind)
        guard !texts.isEmpty else { return nil }
        var alarms: [Alarm] = []
        for text in texts {
            let alarm: Alarm
            if let seconds = Self.reminderOffset(text) {
                alarm = Alarm(.beforeDue(seconds))
            } else {
                let span: Range<Double>
                do {
                    span = try dateSpan(text)
                } catch {
                    throw self.error(
                        "'--remind \(TerminalText.printable(text))' is neither a time before the due nor a date and time",
                        detail:
                            "Accepted forms: 15m, 1h, 2d, 1w, 1h30m (before the due), or a date and time as --due takes, as 'fri 9:00'"
                    )
                }
                guard case .time(let moment) = try itemDate(of: span) else {
                    throw self.error(
                        "'--remind \(TerminalText.printable(text))' is a day; a reminder rings at a time: give one, as '\(TerminalText.printable(text)) 9:00', or a time before the due, as 15m"
                    )
                }
                alarm = Alarm(.at(moment))
            }
            if !alarms.contains(alarm) { alarms.append(alarm) }
        }
        return alarms
    }

    /// The seconds a reminder's offset names: digits and a unit (`m`, `h`, `d`, `w`), one or more
    /// (`1h30m`); `nil` for other text.
    static func reminderOffset(_ text: String) -> Int? {
        let units: [Character: Int] = ["m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        var seconds = 0, digits = "", sawUnit = false
        for character in text.lowercased() {
            if character.isASCII, character.isNumber {
                digits.append(character)
                guard digits.count <= 6 else { return nil }
            } else if let unit = units[character], let count = Int(digits) {
                seconds += count * unit
                digits = ""
                sawUnit = true
            } else {
                return nil
            }
        }
        guard sawUnit, digits.isEmpty, seconds <= Alarm.longestOffset else { return nil }
        return seconds
    }
}
