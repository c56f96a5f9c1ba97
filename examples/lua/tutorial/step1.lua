-- Step 1: a menu that speaks.
local items = {"Play", "Quit"}
local at = 1
earshot.say("My first game. " .. items[at])
while true do
    if earshot.key_pressed("DOWN") then
        at = at % #items + 1
        earshot.say(items[at])
    elseif earshot.key_pressed("UP") then
        at = (at - 2) % #items + 1
        earshot.say(items[at])
    elseif earshot.key_pressed("ENTER") then
        earshot.say("You chose " .. items[at])
        earshot.wait(1500)
        earshot.quit()
    end
    earshot.wait(0)
end
