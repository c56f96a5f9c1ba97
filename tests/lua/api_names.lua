-- Prints every name the Lua bindings and the compat layer give a script, one a line, in
-- the form docs/lua.md documents them (tests/lua/check-docs compares the two).
local names = {}
local function add(prefix, t, sep)
    for k, v in pairs(t) do
        if type(v) == "function" and not k:match("^_") then names[#names + 1] = prefix .. sep .. k end
    end
end
add("earshot", earshot, ".")
add("earshot.save", earshot.save, ".")
add("earshot.file", earshot.file, ".")
add("earshot.actions", earshot.actions, ".")
add("earshot.pad", earshot.pad, ".")
add("earshot.ui", earshot.ui, ".")
add("voice", getmetatable(earshot.play("synth:sine:440:0.1")).__index, ":")
local level = earshot.level("#P#")
add("level", getmetatable(level).__index, ":")
add("body", getmetatable(earshot.body{name = "x", kind = "fixed"}).__index, ":")
local C = require("earshot.compat")
for k, v in pairs(C) do
    if type(v) == "function" and not k:match("^_") then names[#names + 1] = "compat." .. k end
end
add("pool", getmetatable(C.sound_pool()), ":")
add("form", getmetatable(C.audio_form()), ":")
add("timer", getmetatable(C.timer()), ":")
table.sort(names)
for _, n in ipairs(names) do print("name: " .. n) end
earshot.quit()
