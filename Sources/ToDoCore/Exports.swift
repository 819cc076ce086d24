// The model (`ToDoItem`, dates, places) and the stored form of a list are targets of their own
// below the rules: whoever imports ToDoCore gets them too.
@_exported import ToDoModel
@_exported import ToDoStorage
