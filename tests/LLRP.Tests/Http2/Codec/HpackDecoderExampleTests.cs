using LLRP.Http2.Codec;

namespace LLRP.Tests.Http2.Codec;

/// <summary>The examples of RFC 7541 Appendix C.2 to C.6, decoded with the dynamic table checked after each block.</summary>
public sealed class HpackDecoderExampleTests
{
    private const int DefaultTableSize = 4096;
    private const int NoListLimit = int.MaxValue;

    [Fact]
    public void Decode_C2_1_LiteralWithIndexing_AddsEntry()
    {
        var decoder = new HpackDecoder(DefaultTableSize, NoListLimit);
        Assert.Equal(["custom-key: custom-header"], Hpack.Decode(decoder, "400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"));
        Assert.Equal(["custom-key: custom-header"], Hpack.Entries(decoder.DynamicTable));
        Assert.Equal(55, decoder.DynamicTable.Size);
    }

    [Fact]
    public void Decode_C2_2_LiteralWithoutIndexing_LeavesTableEmpty()
    {
        var decoder = new HpackDecoder(DefaultTableSize, NoListLimit);
        Assert.Equal([":path: /sample/path"], Hpack.Decode(decoder, "040c 2f73 616d 706c 652f 7061 7468"));
        Assert.Equal(0, decoder.DynamicTable.Count);
    }

    [Fact]
    public void Decode_C2_3_LiteralNeverIndexed_LeavesTableEmpty()
    {
        var decoder = new HpackDecoder(DefaultTableSize, NoListLimit);
        Assert.Equal(["password: secret"], Hpack.Decode(decoder, "1008 7061 7373 776f 7264 0673 6563 7265 74"));
        Assert.Equal(0, decoder.DynamicTable.Count);
    }

    [Fact]
    public void Decode_C2_4_Indexed_FromStaticTable()
    {
        var decoder = new HpackDecoder(DefaultTableSize, NoListLimit);
        Assert.Equal([":method: GET"], Hpack.Decode(decoder, "82"));
        Assert.Equal(0, decoder.DynamicTable.Count);
    }

    /// <summary>C.3: requests without Huffman coding; C.4: the same requests with it.</summary>
    [Theory]
    [InlineData(
        "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
        "8286 84be 5808 6e6f 2d63 6163 6865",
        "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65")]
    [InlineData(
        "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
        "8286 84be 5886 a8eb 1064 9cbf",
        "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf")]
    public void Decode_C3_C4_RequestSequence_OnOneDecoder(string first, string second, string third)
    {
        var decoder = new HpackDecoder(DefaultTableSize, NoListLimit);

        Assert.Equal([":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com"], Hpack.Decode(decoder, first));
        Assert.Equal([":authority: www.example.com"], Hpack.Entries(decoder.DynamicTable));
        Assert.Equal(57, decoder.DynamicTable.Size);

        Assert.Equal([":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com", "cache-control: no-cache"], Hpack.Decode(decoder, second));
        Assert.Equal(["cache-control: no-cache", ":authority: www.example.com"], Hpack.Entries(decoder.DynamicTable));
        Assert.Equal(110, decoder.DynamicTable.Size);

        Assert.Equal([":method: GET", ":scheme: https", ":path: /index.html", ":authority: www.example.com", "custom-key: custom-value"], Hpack.Decode(decoder, third));
        Assert.Equal(["custom-key: custom-value", "cache-control: no-cache", ":authority: www.example.com"], Hpack.Entries(decoder.DynamicTable));
        Assert.Equal(164, decoder.DynamicTable.Size);
    }

    /// <summary>C.5: responses without Huffman coding; C.6: the same with it. The table's 256 bytes force evictions.</summary>
    [Theory]
    [InlineData(
        "4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
        "4803 3330 37c1 c0bf",
        "88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31")]
    [InlineData(
        "4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3",
        "4883 640e ffc1 c0bf",
        "88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07")]
    public void Decode_C5_C6_ResponseSequence_EvictsFromSmallTable(string first, string second, string third)
    {
        var decoder = new HpackDecoder(256, NoListLimit);
        const string Date1 = "date: Mon, 21 Oct 2013 20:13:21 GMT";
        const string Date2 = "date: Mon, 21 Oct 2013 20:13:22 GMT";
        const string Location = "location: https://www.example.com";
        const string Cookie = "set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1";

        Assert.Equal([":status: 302", "cache-control: private", Date1, Location], Hpack.Decode(decoder, first));
        Assert.Equal([Location, Date1, "cache-control: private", ":status: 302"], Hpack.Entries(decoder.DynamicTable));
        Assert.Equal(222, decoder.DynamicTable.Size);

        Assert.Equal([":status: 307", "cache-control: private", Date1, Location], Hpack.Decode(decoder, second));
        Assert.Equal([":status: 307", Location, Date1, "cache-control: private"], Hpack.Entries(decoder.DynamicTable));
        Assert.Equal(222, decoder.DynamicTable.Size);

        Assert.Equal([":status: 200", "cache-control: private", Date2, Location, "content-encoding: gzip", Cookie], Hpack.Decode(decoder, third));
        Assert.Equal([Cookie, "content-encoding: gzip", Date2], Hpack.Entries(decoder.DynamicTable));
        Assert.Equal(215, decoder.DynamicTable.Size);
    }
}
