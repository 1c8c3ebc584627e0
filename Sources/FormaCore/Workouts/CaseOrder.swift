/// `values` without repeats, in the order their type declares its cases.
///
/// The one form of every list of enum values Forma stores or compares — a request's muscles, a profile's training
/// days, the regions a decision avoids — so that two lists with the same values are equal, whatever order they
/// came in.
func distinctInCaseOrder<Value: CaseIterable & Hashable>(_ values: [Value]) -> [Value] {
    let wanted = Set(values)
    return Value.allCases.filter(wanted.contains)
}
