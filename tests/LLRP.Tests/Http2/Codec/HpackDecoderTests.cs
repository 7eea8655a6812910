using System.Buffers;
using System.Text;
using LLRP.Http2.Codec;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http2.Codec;

/// <summary>Every way a field block can be malformed (RFC 7541), and the decoder's table and buffer edges.</summary>
public sealed class HpackDecoderTests
{
    private const int NoListLimit = int.MaxValue;

    /// <summary>RFC 7541 §5.2: a string literal whose length goes past the end of the block.</summary>
    [Theory]
    [InlineData("040c 2f73")]
    [InlineData("0003 6162 6301")]
    [InlineData("40ff 8001")]
    public void Decode_StringLengthBeyondBlock_Section5_2_Throws(string hex)
        => Assert.Throws<HpackDecodingException>(() => Hpack.Decode(new HpackDecoder(4096, NoListLimit), hex));

    /// <summary>RFC 7541 §6.2: a literal representation cut before its name or value string.</summary>
    [Theory]
    [InlineData("40")]
    [InlineData("04")]
    [InlineData("0001 61")]
    public void Decode_BlockEndsBeforeString_Section6_2_Throws(string hex)
        => Assert.Throws<HpackDecodingException>(() => Hpack.Decode(new HpackDecoder(4096, NoListLimit), hex));

    /// <summary>RFC 7541 §6.1: "The index value of 0 is not used. It MUST be treated as a decoding error".</summary>
    [Fact]
    public void Decode_IndexZero_Section6_1_Throws()
        => Assert.Throws<HpackDecodingException>(() => Hpack.Decode(new HpackDecoder(4096, NoListLimit), "80"));

    /// <summary>RFC 7541 §2.3.3: "Indices strictly greater than the sum of the lengths of both tables MUST be treated as a decoding error".</summary>
    [Theory]
    [InlineData("be")]
    [InlineData("7e 0161")]
    [InlineData("0f2f 0161")]
    [InlineData("ff80808080 01")]
    public void Decode_IndexBeyondTables_Section2_3_3_Throws(string hex)
        => Assert.Throws<HpackDecodingException>(() => Hpack.Decode(new HpackDecoder(4096, NoListLimit), hex));

    [Fact]
    public void Decode_IndexOfNewestDynamicEntry_Section2_3_3()
    {
        var decoder = new HpackDecoder(4096, NoListLimit);
        Hpack.Decode(decoder, "400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572");
        Assert.Equal(["custom-key: custom-header"], Hpack.Decode(decoder, "be"));
        Assert.Throws<HpackDecodingException>(() => Hpack.Decode(decoder, "bf"));
    }

    /// <summary>RFC 7541 §6.3: "The new maximum size MUST be lower than or equal to the limit ... A value that exceeds this limit MUST be treated as a decoding error".</summary>
    [Fact]
    public void Decode_TableSizeUpdateAboveSetting_Section6_3_Throws()
    {
        Assert.Throws<HpackDecodingException>(() => Hpack.Decode(new HpackDecoder(4096, NoListLimit), "3fe21f 82"));
        Assert.Equal([":method: GET"], Hpack.Decode(new HpackDecoder(4096, NoListLimit), "3fe11f 82"));
    }

    /// <summary>RFC 7541 §4.2: a dynamic table size update "MUST occur at the beginning of the first header block"; two in a row there are allowed.</summary>
    [Fact]
    public void Decode_TableSizeUpdateAfterField_Section4_2_Throws()
    {
        Assert.Throws<HpackDecodingException>(() => Hpack.Decode(new HpackDecoder(4096, NoListLimit), "82 20"));
        Assert.Equal([":method: GET"], Hpack.Decode(new HpackDecoder(4096, NoListLimit), "20 3fe11f 82"));
    }

    /// <summary>RFC 7541 §4.3: a smaller maximum size evicts until the table fits; 0 empties it.</summary>
    [Fact]
    public void Decode_TableSizeUpdate_Section4_3_Evicts()
    {
        var decoder = new HpackDecoder(4096, NoListLimit);
        Hpack.Decode(decoder, "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d");
        Hpack.Decode(decoder, "8286 84be 5808 6e6f 2d63 6163 6865");
        Hpack.Decode(decoder, "3f1b 82");
        Assert.Equal(58, decoder.DynamicTable.MaxSize);
        Assert.Equal(["cache-control: no-cache"], Hpack.Entries(decoder.DynamicTable));
        Hpack.Decode(decoder, "20");
        Assert.Equal(0, decoder.DynamicTable.Count);
        Assert.Equal(0, decoder.DynamicTable.Size);
        Assert.Throws<HpackDecodingException>(() => Hpack.Decode(decoder, "be"));
    }

    /// <summary>RFC 7541 §5.2: "A Huffman-encoded string literal containing the EOS symbol MUST be treated as a decoding error".</summary>
    [Fact]
    public void Decode_HuffmanEos_Section5_2_Throws()
    {
        var value = HuffmanTestEncoder.EncodeSymbols(['a', HuffmanCode.Eos, 'b'], paddingBits: null);
        Assert.Throws<HpackDecodingException>(() => new HpackDecoder(4096, NoListLimit).Decode(HuffmanLiteral(value), new HeaderRecorder()));
    }

    /// <summary>RFC 7541 §5.2: "A padding strictly longer than 7 bits MUST be treated as a decoding error".</summary>
    [Theory]
    [InlineData(11)]
    [InlineData(19)]
    public void Decode_HuffmanPaddingLongerThan7Bits_Section5_2_Throws(int onesAfterA)
    {
        var value = HuffmanTestEncoder.EncodeSymbols(['a'], ((1UL << onesAfterA) - 1, onesAfterA));
        Assert.Throws<HpackDecodingException>(() => new HpackDecoder(4096, NoListLimit).Decode(HuffmanLiteral(value), new HeaderRecorder()));
    }

    /// <summary>RFC 7541 §5.2: a whole byte of ones after the last symbol is padding of 8 bits.</summary>
    [Fact]
    public void Decode_HuffmanPaddingWholeByte_Section5_2_Throws()
    {
        Assert.Throws<HpackDecodingException>(() => Hpack.Decode(new HpackDecoder(4096, NoListLimit), "0001 61 81ff"));
        Assert.Throws<HpackDecodingException>(() => Hpack.Decode(new HpackDecoder(4096, NoListLimit), "0001 61 821fff"));
    }

    /// <summary>RFC 7541 §5.2: padding "corresponding to the most significant bits of the code for the EOS symbol" (all ones); zeros are an error.</summary>
    [Theory]
    [InlineData(0b000, 3)]
    [InlineData(0b110, 3)]
    [InlineData(0b011, 3)]
    public void Decode_HuffmanPaddingNotAllOnes_Section5_2_Throws(int padding, int bits)
    {
        var value = HuffmanTestEncoder.EncodeSymbols(['a'], ((ulong)padding, bits));
        Assert.Throws<HpackDecodingException>(() => new HpackDecoder(4096, NoListLimit).Decode(HuffmanLiteral(value), new HeaderRecorder()));
    }

    [Fact]
    public void Decode_HuffmanPaddingUpTo7Ones_Accepted()
    {
        var recorder = new HeaderRecorder();
        new HpackDecoder(4096, NoListLimit).Decode(HuffmanLiteral(HuffmanTestEncoder.EncodeSymbols(['a', 'b', 'c'], paddingBits: null)), recorder);
        Assert.Equal(["a: abc"], recorder.Fields);
    }

    /// <summary>
    /// RFC 9113 §6.5.2 (name + value + 32 per field) above the limit: the fields past it are not given, the block is
    /// still decoded to the end so the dynamic table stays in step (RFC 7541 §2.2), then the error is thrown.
    /// </summary>
    [Fact]
    public void Decode_HeaderListAboveLimit_Section6_5_2_DecodesWholeBlockThenThrows()
    {
        var decoder = new HpackDecoder(4096, maxHeaderListSize: 60);
        var recorder = new HeaderRecorder();
        var block = HexBytes.Parse("82 400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572 84");

        var error = Assert.Throws<HeaderListTooLargeException>(() => decoder.Decode(block, recorder));

        Assert.Equal(42 + 55 + 38, error.HeaderListSize);
        Assert.Equal([":method: GET"], recorder.Fields);
        Assert.Equal(["custom-key: custom-header"], Hpack.Entries(decoder.DynamicTable));
        Assert.Equal(["custom-key: custom-header"], Hpack.Decode(decoder, "be"));
    }

    [Fact]
    public void Decode_HeaderListAtLimit_Section6_5_2_Accepted()
        => Assert.Equal([":method: GET", ":path: /"], Hpack.Decode(new HpackDecoder(4096, maxHeaderListSize: 42 + 38), "82 84"));

    /// <summary>RFC 7541 §4.4: "an entry larger than the maximum size causes the table to be emptied", which is not an error.</summary>
    [Fact]
    public void Decode_EntryLargerThanTable_Section4_4_EmptiesTable()
    {
        var decoder = new HpackDecoder(64, NoListLimit);
        Hpack.Decode(decoder, "4001 61 0178");
        Assert.Equal(["a: x"], Hpack.Entries(decoder.DynamicTable));
        var longValue = new string('v', 40);
        Assert.Equal([$"a: {longValue}"], Hpack.Decode(decoder, "4001 61 28" + Convert.ToHexString(Encoding.ASCII.GetBytes(longValue))));
        Assert.Equal(0, decoder.DynamicTable.Count);
    }

    /// <summary>RFC 7541 §4.4: a new entry may name an entry its own addition evicts; the name is the one referred to.</summary>
    [Fact]
    public void Decode_NameOfEntryEvictedByItsAddition_Section4_4()
    {
        var decoder = new HpackDecoder(64, NoListLimit);
        Hpack.Decode(decoder, "400a 6375 7374 6f6d 2d6b 6579 0178");
        Assert.Equal(["custom-key: yyyyyyyyyy"], Hpack.Decode(decoder, "7e 0a 7979 7979 7979 7979 7979"));
        Assert.Equal(["custom-key: yyyyyyyyyy"], Hpack.Entries(decoder.DynamicTable));
        Assert.Equal(52, decoder.DynamicTable.Size);
    }

    /// <summary>
    /// Entries added and evicted many times over, half of them naming a dynamic entry (which the addition may move or
    /// evict, RFC 7541 §4.4), so the table's bytes move to the front often; compared to a plain list after each.
    /// </summary>
    [Fact]
    public void Decode_ManyInsertions_TableMatchesModel()
    {
        const int MaxSize = 256;
        var decoder = new HpackDecoder(MaxSize, NoListLimit);
        var model = new List<(string Name, string Value)>();
        var random = new Random(7541);
        for (var i = 0; i < 4_000; i++)
        {
            var value = new string((char)('a' + i % 26), random.Next(0, 120));
            var block = new ArrayBufferWriter<byte>();
            string name;
            if (model.Count > 0 && random.Next(2) == 0)
            {
                var entry = random.Next(model.Count);
                name = model[entry].Name;
                HpackInteger.Write(block, 0x40, 6, HpackStaticTable.Count + 1 + entry);
            }
            else
            {
                name = $"n{i % 13}" + new string('k', random.Next(0, 40));
                HpackInteger.Write(block, 0x40, 6, 0);
                block.Write(Literal(name));
            }

            block.Write(Literal(value));
            var recorder = new HeaderRecorder();
            decoder.Decode(block.WrittenSpan, recorder);
            Assert.Equal([$"{name}: {value}"], recorder.Fields);

            model.Insert(0, (name, value));
            while (model.Sum(entry => entry.Name.Length + entry.Value.Length + 32) > MaxSize)
            {
                model.RemoveAt(model.Count - 1);
            }

            Assert.Equal(model.Select(entry => $"{entry.Name}: {entry.Value}"), Hpack.Entries(decoder.DynamicTable));
        }
    }

    /// <summary>Huffman strings longer than the decoder's first buffer: it grows, and the name decoded before the growth stays right.</summary>
    [Fact]
    public void Decode_LongHuffmanStrings_BufferGrows()
    {
        var name = new string('n', 900);
        var value = new string('0', 5_000);
        var block = new List<byte> { 0x00 };
        block.AddRange(HuffmanString(name));
        block.AddRange(HuffmanString(value));
        var decoder = new HpackDecoder(4096, NoListLimit);
        for (var i = 0; i < 2; i++)
        {
            var recorder = new HeaderRecorder();
            decoder.Decode(block.ToArray(), recorder);
            Assert.Equal([$"{name}: {value}"], recorder.Fields);
        }
    }

    [Fact]
    public void Decode_EmptyBlock_NoFields()
        => Assert.Empty(Hpack.Decode(new HpackDecoder(4096, NoListLimit), ""));

    /// <summary>A block of one literal field without indexing whose name is "a" and whose value is the Huffman-coded bytes.</summary>
    private static byte[] HuffmanLiteral(byte[] huffmanValue) => [0x00, 0x01, (byte)'a', .. HuffmanString(huffmanValue)];

    private static byte[] HuffmanString(string value) => HuffmanString(HuffmanTestEncoder.Encode(Text.Bytes(value)));

    private static byte[] HuffmanString(byte[] encoded)
    {
        var length = new ArrayBufferWriter<byte>();
        HpackInteger.Write(length, 0x80, 7, encoded.Length);
        return [.. length.WrittenSpan, .. encoded];
    }

    private static byte[] Literal(string value)
    {
        var length = new ArrayBufferWriter<byte>();
        HpackInteger.Write(length, 0, 7, value.Length);
        return [.. length.WrittenSpan, .. Text.Bytes(value)];
    }
}
