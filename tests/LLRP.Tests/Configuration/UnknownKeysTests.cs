using LLRP.Configuration;
using Microsoft.Extensions.Configuration;

namespace LLRP.Tests.Configuration;

public sealed class UnknownKeysTests
{
    [Fact]
    public void Find_MisspelledKeysOnCommandLineAndInSettingsFile_EachNamedOnceWithTheNearestKey()
    {
        var directory = Directory.CreateTempSubdirectory("llrp-unknown-keys-");
        try
        {
            File.WriteAllText(Path.Combine(directory.FullName, "appsettings.json"), """
                {
                  "Logging": { "LogLevel": { "Default": "Warning" } },
                  "ReverseProxy": { "Routes": { "r": { "ClusterId": "c" } } },
                  "destinations": [ { "address": "http://backend/" } ],
                  "timeouts": { "connectMs": 100, "conectMs": 5 },
                  "preserveHst": true
                }
                """);
            string[] args = ["--urls=http://127.0.0.1:0", "--timeout.connectMs=5", "--shareClients.count=2", "--LLRP_HTTPCLIENT_REUSEREQUST=1"];
            var configuration = new ConfigurationBuilder()
                .AddCommandLine(args)
                .AddJsonFile(Path.Combine(directory.FullName, "appsettings.json"))
                .AddEnvironmentVariables()
                .AddCommandLine(args)
                .Build();

            var unknown = UnknownKeys.Find(configuration).ToList();

            Assert.Equal(
            [
                ("LLRP_HTTPCLIENT_REUSEREQUST", "command line", "LLRP_HTTPCLIENT_REUSEREQUEST"),
                ("preserveHst", "appsettings.json", "preserveHost"),
                ("timeout.connectMs", "command line", "timeouts.connectMs"),
                ("timeouts.conectMs", "appsettings.json", "timeouts.connectMs"),
            ], unknown.OrderBy(found => found.Key, StringComparer.Ordinal));
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }
}
