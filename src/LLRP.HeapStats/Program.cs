using System.Globalization;
using System.Runtime.InteropServices;
using Microsoft.Diagnostics.Runtime;

// Heap statistics of a running .NET process (the proxy, say), from a snapshot: every object on its GC heap, reachable
// or not yet collected, counted and sized by type. Types with fewer than min-count objects are left out, so that with N
// idle connections open, what each connection holds stands out; after a burst of requests, the garbage per request does.
// Usage: dotnet run -c Release --project src/LLRP.HeapStats -- <pid> [min-count, default 500] [rows, default 40]
if (args.Length is < 1 or > 3 || !int.TryParse(args[0], out var pid))
{
    Console.Error.WriteLine("usage: LLRP.HeapStats <pid> [min-count] [rows]");
    return 2;
}

var minCount = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 500;
var rows = args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 40;

// The process runs on this machine's runtime, whose data access library sits beside the one running this tool.
var dac = Path.Combine(RuntimeEnvironment.GetRuntimeDirectory(), OperatingSystem.IsWindows() ? "mscordaccore.dll" : "libmscordaccore.so");
using var target = DataTarget.CreateSnapshotAndAttach(pid);
using var runtime = target.ClrVersions[0].CreateRuntime(dac, ignoreMismatch: true);

var byType = new Dictionary<string, (long Count, long Bytes)>();
long total = 0;
foreach (var item in runtime.Heap.EnumerateObjects())
{
    if (!item.IsValid || item.IsFree)
    {
        continue;
    }

    var name = item.Type?.Name ?? "(unknown type)";
    var (count, bytes) = byType.GetValueOrDefault(name);
    byType[name] = (count + 1, bytes + (long)item.Size);
    total += (long)item.Size;
}

Console.WriteLine($"{total:N0} bytes in heap objects of {byType.Values.Sum(s => s.Count):N0} objects; types with at least {minCount} objects, largest first:");
Console.WriteLine($"{"objects",10} {"bytes",14}  type");
foreach (var (name, (count, bytes)) in byType.Where(entry => entry.Value.Count >= minCount).OrderByDescending(entry => entry.Value.Bytes).Take(rows))
{
    Console.WriteLine($"{count,10:N0} {bytes,14:N0}  {name}");
}

return 0;
