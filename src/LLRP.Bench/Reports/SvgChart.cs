using System.Globalization;
using System.Security;
using System.Text;
using LLRP.Bench.Results;

namespace LLRP.Bench.Reports;

/// <summary>
/// chart.svg: for each shape a group of horizontal bars, one per contender: requests/s (median, with a
/// min–max whisker) on the left, p99 latency (median) on the right. Each group has its own scale.
/// </summary>
public static class SvgChart
{
    private const int LabelWidth = 200;
    private const int PanelWidth = 400;
    private const int PanelGap = 90;
    private const int BarHeight = 13;
    private const int BarGap = 3;
    private const int GroupHeader = 24;
    private const int GroupGap = 12;
    private const int Top = 60;

    private static readonly string[] _palette =
    [
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
        "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#8c564b",
    ];

    public static string Write(RunResult run)
    {
        var contenders = run.Measured.Select(c => c.Name).ToList();
        var groups = run.Shapes
            .Select(shape => (Shape: shape, Rows: contenders
                .Select(name => (Name: name, Samples: run.Samples.Where(s => s.Shape == shape && s.Contender == name).ToList()))
                .Where(row => row.Samples.Count > 0)
                .ToList()))
            .Where(group => group.Rows.Count > 0)
            .ToList();

        var width = LabelWidth + PanelWidth * 2 + PanelGap + 80;
        var height = Top + groups.Sum(g => GroupHeader + g.Rows.Count * (BarHeight + BarGap) + GroupGap) + 20;
        var svg = new StringBuilder();
        svg.Append(Invariant($"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"11\">\n"));
        svg.Append(Invariant($"<rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>\n"));
        svg.Append(Invariant($"<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">LLRP side-by-side, {run.Started:yyyy-MM-dd HH:mm} UTC, {run.Options.Rounds} round(s) × {run.Options.DurationSeconds} s</text>\n"));
        svg.Append(Invariant($"<text x=\"{LabelWidth}\" y=\"46\" font-weight=\"bold\">requests/s (median, whisker min–max; higher is better)</text>\n"));
        svg.Append(Invariant($"<text x=\"{LabelWidth + PanelWidth + PanelGap}\" y=\"46\" font-weight=\"bold\">p99 latency (median; lower is better)</text>\n"));

        var y = Top;
        foreach (var (shape, rows) in groups)
        {
            svg.Append(Invariant($"<text x=\"10\" y=\"{y + 15}\" font-size=\"12\" font-weight=\"bold\">{Escape(shape.Title)}</text>\n"));
            svg.Append(Invariant($"<line x1=\"10\" y1=\"{y + 19}\" x2=\"{width - 10}\" y2=\"{y + 19}\" stroke=\"#ddd\"/>\n"));
            y += GroupHeader;
            var rps = rows.Select(r => Spread.Of(r.Samples.Select(s => s.Wrk.RequestsPerSecond))!.Value).ToList();
            var p99 = rows.Select(r => Spread.Of(r.Samples.Select(s => s.Wrk.LatencyP99Microseconds))).ToList();
            var rpsMax = rps.Max(s => s.Max);
            var p99Max = p99.Max(s => s?.Median ?? 0);
            for (var i = 0; i < rows.Count; i++)
            {
                var color = _palette[contenders.IndexOf(rows[i].Name) % _palette.Length];
                svg.Append(Invariant($"<text x=\"{LabelWidth - 6}\" y=\"{y + BarHeight - 2}\" text-anchor=\"end\">{Escape(rows[i].Name)}</text>\n"));
                Bar(svg, LabelWidth, y, Scale(rps[i].Median, rpsMax), color, Units.Count(rps[i].Median));
                var whiskerY = y + (BarHeight / 2);
                svg.Append(Invariant($"<line x1=\"{LabelWidth + Scale(rps[i].Min, rpsMax):0.#}\" y1=\"{whiskerY}\" x2=\"{LabelWidth + Scale(rps[i].Max, rpsMax):0.#}\" y2=\"{whiskerY}\" stroke=\"black\" stroke-width=\"1\"/>\n"));
                if (p99[i] is { } latency)
                {
                    Bar(svg, LabelWidth + PanelWidth + PanelGap, y, Scale(latency.Median, p99Max), color, Units.Latency(latency.Median));
                }

                y += BarHeight + BarGap;
            }

            y += GroupGap;
        }

        svg.Append("</svg>\n");
        return svg.ToString();
    }

    private static void Bar(StringBuilder svg, double x, double y, double length, string color, string label)
    {
        svg.Append(Invariant($"<rect x=\"{x}\" y=\"{y}\" width=\"{Math.Max(1, length):0.#}\" height=\"{BarHeight}\" fill=\"{color}\"/>\n"));
        svg.Append(Invariant($"<text x=\"{x + Math.Max(1, length) + 4:0.#}\" y=\"{y + BarHeight - 2}\">{Escape(label)}</text>\n"));
    }

    private static double Scale(double value, double max) => max > 0 ? value / max * (PanelWidth - 70) : 0;

    private static string Escape(string text) => SecurityElement.Escape(text);

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
