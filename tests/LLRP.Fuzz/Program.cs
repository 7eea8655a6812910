// Fuzzing targets for SharpFuzz: the request head parser, the response head parser and the chunked decoder, each
// checked against itself (the same input whole and cut into segments must give the same result), and the HPACK decoder
// (its decoded fields encoded again must decode the same). scripts/fuzz.sh instruments LLRP.dll and runs each target
// under afl-fuzz:
//   LLRP.Fuzz <target>                  one input per iteration from afl-fuzz (SharpFuzz's persistent mode)
//   LLRP.Fuzz <target> --replay <path>  each file of path (a file or a folder) once, outside afl-fuzz: exit 1 on the
//                                       first one the target fails, naming it
// Targets: request-head, response-head, chunked, hpack, h2-connection (Http2ConnectionTarget: a whole connection of
// the own HTTP/2 server, checked on its own). An HttpMessageException (an HpackDecodingException for hpack)
// is the parsers' answer to a bad message, not a failure; any other exception, or a disagreement of a target's own
// check, is a crash for afl-fuzz.
using LLRP.Fuzz;
using SharpFuzz;

if (args.Length == 0 || FuzzTargets.Find(args[0]) is not { } target)
{
    Console.Error.WriteLine($"usage: LLRP.Fuzz <{string.Join('|', FuzzTargets.Names)}> [--replay <file or folder>]");
    return 2;
}

if (args.Length == 3 && args[1] == "--replay")
{
    return FuzzReplay.Run(target, args[2]);
}

if (args.Length != 1)
{
    Console.Error.WriteLine("usage: LLRP.Fuzz <target> [--replay <file or folder>]");
    return 2;
}

Fuzzer.Run(stream =>
{
    using var buffer = new MemoryStream();
    stream.CopyTo(buffer);
    target(buffer.ToArray());
});
return 0;
