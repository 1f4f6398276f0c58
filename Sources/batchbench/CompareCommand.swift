enum CompareCommand {
    static func run(_ arguments: [String]) -> Int32 { printError("error: compare is not built yet"); return 2 }
}
