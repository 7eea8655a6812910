using LLRP.Bench.Processes;

namespace LLRP.Tests.Benchmarks;

/// <summary>The bench runner's reading of <c>strace -c</c>'s summary (strace 6.1).</summary>
public sealed class StraceSummaryParserTests
{
    private const string Summary = """
        % time     seconds  usecs/call     calls    errors syscall
        ------ ----------- ----------- --------- --------- ----------------
         41.20    0.412000           4    100000     20000 recvfrom
         30.10    0.301000           6     50000           sendto
         20.00    0.200000          20     10000           epoll_wait
          5.00    0.050000           1     40000      1234 read
          3.70    0.037000         370       100        10 futex
          0.00    0.000000           0         3         3 connect
        ------ ----------- ----------- --------- --------- ----------------
        100.00    1.000000           5    200103     21247 total
        """;

    [Fact]
    public void Rows_CallsAndErrorsByColumn_BlankErrorsAreZero()
    {
        var summary = StraceSummaryParser.Parse(Summary);

        Assert.Equal(
            [
                new SyscallCount("recvfrom", 100000, 20000),
                new SyscallCount("sendto", 50000, 0),
                new SyscallCount("epoll_wait", 10000, 0),
                new SyscallCount("read", 40000, 1234),
                new SyscallCount("futex", 100, 10),
                new SyscallCount("connect", 3, 3),
            ],
            summary.Calls);
    }

    [Fact]
    public void Total_SumsEveryRow_FailedReceivesOnlyTheReceives()
    {
        var summary = StraceSummaryParser.Parse(Summary);

        Assert.Equal(200103, summary.Total);
        Assert.Equal(21234, summary.FailedReceives);
    }

    [Fact]
    public void WideCounts_LeadingTextAndCarriageReturns_AreRead()
    {
        var text = "strace: Process 4242 detached\r\n" + """
            % time     seconds  usecs/call     calls    errors syscall
            ------ ----------- ----------- --------- --------- ----------------
            100.00    9.000000           1 123456789  98765432 recvmsg
            ------ ----------- ----------- --------- --------- ----------------
            100.00    9.000000           1 123456789  98765432 total
            """.Replace("\n", "\r\n", StringComparison.Ordinal);

        var summary = StraceSummaryParser.Parse(text);

        Assert.Equal([new SyscallCount("recvmsg", 123456789, 98765432)], summary.Calls);
        Assert.Equal(98765432, summary.FailedReceives);
    }

    [Fact]
    public void NoTable_IsAFormatError()
    {
        Assert.Throws<FormatException>(() => StraceSummaryParser.Parse("strace: attach: ptrace(PTRACE_SEIZE, 1): Operation not permitted\n"));
    }

    [Fact]
    public void NoCall_IsAnEmptySummary()
    {
        var summary = StraceSummaryParser.Parse("""
            % time     seconds  usecs/call     calls    errors syscall
            ------ ----------- ----------- --------- --------- ----------------
            100.00    0.000000           0         0           total
            """);

        Assert.Empty(summary.Calls);
        Assert.Equal(0, summary.Total);
    }
}
