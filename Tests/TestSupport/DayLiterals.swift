import ToDoCore
import ToDoModel

extension ItemDate {
    /// The whole day `year`-`month`-`day`, for tests.
    public static func day(_ year: Int, _ month: Int, _ day: Int) -> ItemDate {
        .day(Day(year: year, month: month, day: day)!)
    }
}
