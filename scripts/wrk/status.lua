-- Counts responses whose status is not 2xx (wrk itself only counts status >= 400) and prints
-- "Non-2xx responses: N" after wrk's report. Used alone for GETs and loaded by post.lua.
non2xx = 0
local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

function response(status, headers, body)
   if status < 200 or status > 299 then
      non2xx = non2xx + 1
   end
end

function done(summary, latency, requests)
   local total = 0
   for _, thread in ipairs(threads) do
      total = total + thread:get("non2xx")
   end
   io.write(string.format("Non-2xx responses: %d\n", total))
end
