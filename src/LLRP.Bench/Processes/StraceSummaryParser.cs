namespace LLRP.Bench.Processes;

/// <summary>
/// Reads the table <c>strace -c</c> writes (strace 6): a header (<c>% time seconds usecs/call calls errors syscall</c>), a
/// line of dashes whose runs give each column's extent, one row per system call, the dashes again and a <c>total</c>
/// row. A column's values are right-aligned within its run of dashes and <c>errors</c> is blank when none failed, so
/// values are read by column extent, not by splitting the row on blanks.
/// </summary>
public static class StraceSummaryParser
{
    /// <exception cref="FormatException">The text has no <c>strace -c</c> table.</exception>
    public static SyscallSummary Parse(string text)
    {
        var lines = text.Split('\n').Select(line => line.TrimEnd('\r')).ToList();
        var header = lines.FindIndex(line => line.Contains("calls", StringComparison.Ordinal) && line.Contains("syscall", StringComparison.Ordinal));
        if (header < 0 || header + 1 >= lines.Count || !lines[header + 1].TrimStart().StartsWith('-'))
        {
            throw new FormatException("no strace -c table (header and dashes) found");
        }

        var columns = Columns(lines[header + 1]);
        var names = columns.Select(column => Cell(lines[header], column)).ToList();
        var callsColumn = columns[Index(names, "calls")];
        var errorsColumn = columns[Index(names, "errors")];
        var nameColumn = columns[Index(names, "syscall")];
        var calls = new List<SyscallCount>();
        foreach (var line in lines.Skip(header + 2))
        {
            if (line.TrimStart().StartsWith('-') || line.Trim().Length == 0)
            {
                continue;
            }

            var name = Cell(line, (nameColumn.Start, line.Length));
            if (name == "total")
            {
                break;
            }

            var errors = Cell(line, errorsColumn);
            calls.Add(new SyscallCount(
                name,
                long.Parse(Cell(line, callsColumn), System.Globalization.CultureInfo.InvariantCulture),
                errors.Length == 0 ? 0 : long.Parse(errors, System.Globalization.CultureInfo.InvariantCulture)));
        }

        return new SyscallSummary(calls);
    }

    private static int Index(List<string> names, string name)
        => names.IndexOf(name) is var index and >= 0 ? index : throw new FormatException($"the strace -c header has no '{name}' column");

    /// <summary>The runs of dashes: each column's [Start, End).</summary>
    private static List<(int Start, int End)> Columns(string dashes)
    {
        var columns = new List<(int Start, int End)>();
        for (var i = 0; i < dashes.Length; i++)
        {
            if (dashes[i] != '-')
            {
                continue;
            }

            var start = i;
            while (i < dashes.Length && dashes[i] == '-')
            {
                i++;
            }

            columns.Add((start, i));
        }

        return columns;
    }

    /// <summary>The text of a line within a column, trimmed; empty when the line ends before it.</summary>
    private static string Cell(string line, (int Start, int End) column)
        => column.Start >= line.Length ? "" : line[column.Start..Math.Min(column.End, line.Length)].Trim();
}
