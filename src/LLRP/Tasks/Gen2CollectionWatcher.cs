namespace LLRP.Tasks;

/// <summary>
/// An object nothing holds, finalized after each collection that finds it unreachable and registered again: once it has
/// reached gen2, after each gen2 collection, when it empties the box caches (<see cref="BoxPool.Trim"/>). A gen2
/// collection is the runtime's sign of memory pressure; under steady load with pooled boxes there are few of them.
/// </summary>
internal sealed class Gen2CollectionWatcher
{
    private Gen2CollectionWatcher()
    {
    }

    ~Gen2CollectionWatcher()
    {
        if (Environment.HasShutdownStarted)
        {
            return;
        }

        if (GC.GetGeneration(this) == GC.MaxGeneration)
        {
            BoxPool.Trim();
        }

        GC.ReRegisterForFinalize(this);
    }

    public static void Start() => _ = new Gen2CollectionWatcher();
}
