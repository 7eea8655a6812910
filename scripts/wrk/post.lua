-- POSTs a body of N bytes (first script argument, default 1024) and counts non-2xx responses.
-- Usage: wrk -s scripts/wrk/post.lua http://host:port/sink -- 1024
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "status.lua")

function init(args)
   local size = tonumber(args[1]) or 1024
   wrk.method = "POST"
   wrk.body = string.rep("x", size)
   wrk.headers["Content-Type"] = "application/octet-stream"
end
