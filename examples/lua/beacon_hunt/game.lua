-- SPDX-License-Identifier: Zlib
-- Beacon Hunt: a small complete audio game in Lua (docs/tutorial.md builds one like it).
-- A spoken menu; a level from a map; a beacon that hums on a body in the level; walls you
-- hear when you walk into them; the fewest steps kept in the save.
--
--   earshot-lua examples/lua/beacon_hunt/game.lua
--
-- Keys: Up/Down/Enter in the menu; arrows walk one metre; F1 says how far the beacon is;
-- Escape goes back to the menu.

local MAP = [[
#######
#P    #
##### #
#B    #
#######
]]

local level = earshot.level(MAP)
level:add_walls()
local start = level:tiles("P")[1]
local goal = level:tiles("B")[1]

-- the player: a small kinematic body the ears ride on
local player = earshot.body{name = "player", kind = "kinematic", shape = "sphere",
                            radius = 0.3, x = start.x, y = 0.5, z = start.z}
player:listen()

local found_count, bumps = 0, 0
local best = earshot.save.get("best_steps", 0)

-- A menu: the title and the first item spoken; Up and Down move, Enter chooses.
local function choose(title, items)
    local at = 1
    earshot.say(title .. ". " .. items[at])
    while true do
        if earshot.key_pressed("DOWN") then
            at = at % #items + 1
            earshot.say(items[at])
        elseif earshot.key_pressed("UP") then
            at = (at - 2) % #items + 1
            earshot.say(items[at])
        elseif earshot.key_pressed("ENTER") then
            return at
        end
        earshot.wait(0) -- the rest of this frame goes back to the engine
    end
end

local function distance_to_goal()
    local x, _, z = player:position()
    return math.abs(goal.x - x) + math.abs(goal.z - z)
end

-- One round: from the start to the beacon. Returns the steps taken, or nil on Escape.
local function play()
    player:set_position(start.x, 0.5, start.z)
    local beacon = earshot.body{name = "beacon", kind = "fixed", sensor = true,
                                x = goal.x, y = 0.5, z = goal.z, half = 0.2}
    beacon:sound{sound = "synth:triangle:660:0.5:0.4", loop = true, model = "fade",
                 max_distance = 15}
    earshot.say("Find the beacon. Follow its hum.")
    local steps = 0
    local moves = {UP = {0, -1}, DOWN = {0, 1}, LEFT = {-1, 0}, RIGHT = {1, 0}}
    while true do
        for key, d in pairs(moves) do
            if earshot.key_pressed(key) then
                if player:move(d[1], 0, d[2]) then
                    bumps = bumps + 1
                    earshot.play("synth:square:110:0.08:0.3")
                    earshot.say("Wall")
                else
                    steps = steps + 1
                    earshot.play("synth:noise:1:0.04:0.2", {volume_db = -6})
                end
            end
        end
        if earshot.key_pressed("F1") then
            earshot.say(string.format("The beacon is %.0f metres away", distance_to_goal()))
        end
        if earshot.key_pressed("ESCAPE") then
            beacon:remove()
            return nil
        end
        local row, column = level:cell_at(player:position())
        if row == goal.row and column == goal.column then
            beacon:remove()
            earshot.play("synth:sine:880:0.3:0.5")
            return steps
        end
        earshot.wait(0)
    end
end

function menu()
    while true do
        local title = "Beacon Hunt"
        if best > 0 then title = title .. ". Best: " .. best .. " steps" end
        local choice = choose(title, {"Play", "Quit"})
        if choice == 2 then
            earshot.say("Goodbye")
            earshot.wait(1000)
            earshot.quit()
            return
        end
        local steps = play()
        if steps then
            found_count = found_count + 1
            earshot.say("You found the beacon in " .. steps .. " steps", false)
            if best == 0 or steps < best then
                best = steps
                earshot.save.set("best_steps", best)
                earshot.save.write()
                earshot.say("A new best", false)
            end
        end
        earshot.summary(string.format("found=%d best=%d bumps=%d", found_count, best, bumps))
        earshot.wait(3000) -- let the news be heard before the menu speaks
    end
end

menu()
