-- Step 2: a sound you walk towards.
local me = earshot.body{name = "me", kind = "kinematic", shape = "sphere", radius = 0.3}
me:listen()
local bell = earshot.body{name = "bell", kind = "fixed", sensor = true, z = -5, half = 0.2}
bell:sound{sound = "synth:triangle:660:0.5:0.4", loop = true}
earshot.say("A bell rings ahead. Walk to it with Up.")
while true do
    if earshot.key_pressed("UP") then me:move(0, 0, -1) end
    local _, _, z = me:position()
    if z <= -5 then
        earshot.say("You reached the bell")
        earshot.wait(1500)
        earshot.quit()
    end
    earshot.wait(0)
end
