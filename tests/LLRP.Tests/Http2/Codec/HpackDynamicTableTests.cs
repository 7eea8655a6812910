using LLRP.Http2.Codec;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http2.Codec;

/// <summary>The dynamic table's eviction (RFC 7541 §4.3, §4.4) against a plain list, over many moves of its bytes.</summary>
public sealed class HpackDynamicTableTests
{
    /// <summary>
    /// Entries each with its own text, of many sizes: many are live when the bytes move
    /// to the front, and a large one evicts few bytes but writes many, over where the live entries were before the move.
    /// </summary>
    [Theory]
    [InlineData(256, 0, 12)]
    [InlineData(256, 0, 200)]
    [InlineData(4096, 0, 300)]
    [InlineData(100, 60, 70)]
    [InlineData(1000, 100, 400)]
    [InlineData(4096, 200, 1500)]
    [InlineData(4096, 0, 3000)]
    public void Add_ManyEntries_MatchesModel(int maxSize, int minLength, int maxLength)
    {
        var table = new HpackDynamicTable(maxSize);
        var model = new List<string>();
        var random = new Random(maxSize + maxLength);
        for (var i = 0; i < 5_000; i++)
        {
            var text = i.ToString("D6");
            var name = text + new string('n', random.Next(4) == 0 ? random.Next(maxLength) : random.Next(minLength, maxLength));
            var value = new string('v', random.Next(0, 4)) + text;
            table.Add(Text.Bytes(name), Text.Bytes(value));

            model.Insert(0, $"{name}: {value}");
            while (model.Sum(entry => entry.Length - 2 + HpackDynamicTable.EntryOverhead) > maxSize)
            {
                model.RemoveAt(model.Count - 1);
            }

            Assert.Equal(model, Hpack.Entries(table));
            Assert.Equal(model.Sum(entry => entry.Length - 2 + HpackDynamicTable.EntryOverhead), table.Size);
        }
    }

    /// <summary>RFC 7541 §4.3: lowering the maximum size evicts from the oldest; raising it back keeps what is left.</summary>
    [Fact]
    public void SetMaxSize_Lower_EvictsOldest_Section4_3()
    {
        var table = new HpackDynamicTable(200);
        table.Add("a"u8, "1"u8);
        table.Add("b"u8, "2"u8);
        table.Add("c"u8, "3"u8);
        table.SetMaxSize(70);
        Assert.Equal(["c: 3", "b: 2"], Hpack.Entries(table));
        table.SetMaxSize(200);
        table.Add("d"u8, "4"u8);
        Assert.Equal(["d: 4", "c: 3", "b: 2"], Hpack.Entries(table));
        Assert.Equal(102, table.Size);
    }

    [Fact]
    public void SizeZero_AddsNothing()
    {
        var table = new HpackDynamicTable(0);
        table.Add("a"u8, ""u8);
        Assert.Equal(0, table.Count);
    }
}
