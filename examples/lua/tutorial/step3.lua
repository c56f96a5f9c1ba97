-- Step 3: a wall you hear. The level is a map: '#' is a wall, 'P' the start.
local level = earshot.level([[
#####
#P  #
#####
]])
level:add_walls()
local start = level:tiles("P")[1]
local me = earshot.body{name = "me", kind = "kinematic", shape = "sphere", radius = 0.3,
                        x = start.x, z = start.z}
me:listen()
earshot.say("Walk with the arrows.")
local moves = {UP = {0, -1}, DOWN = {0, 1}, LEFT = {-1, 0}, RIGHT = {1, 0}}
while true do
    for key, d in pairs(moves) do
        if earshot.key_pressed(key) and me:move(d[1], 0, d[2]) then
            earshot.play("synth:square:110:0.08:0.3")
            earshot.say("Wall")
        end
    end
    if earshot.key_pressed("ESCAPE") then earshot.quit() end
    earshot.wait(0)
end
