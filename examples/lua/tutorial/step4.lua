-- Step 4: a score. Each coin found scores a point; the run reports it.
local level = earshot.level([[
#######
#P c c#
#######
]])
level:add_walls()
local start = level:tiles("P")[1]
local me = earshot.body{name = "me", kind = "kinematic", shape = "sphere", radius = 0.3,
                        x = start.x, z = start.z}
me:listen()
local coins = {}
for _, tile in ipairs(level:tiles("c")) do
    local coin = earshot.body{name = "coin", kind = "fixed", sensor = true,
                              x = tile.x, z = tile.z, half = 0.2}
    coin:sound{sound = "synth:sine:990:0.25:0.3", loop = true, model = "fade", max_distance = 6}
    coins[#coins + 1] = {body = coin, row = tile.row, column = tile.column}
end
local score = 0
earshot.say("Collect the coins. Right walks.")
while #coins > 0 do
    if earshot.key_pressed("RIGHT") then me:move(1, 0, 0) end
    local row, column = level:cell_at(me:position())
    for i, coin in ipairs(coins) do
        if coin.row == row and coin.column == column then
            coin.body:remove()
            table.remove(coins, i)
            score = score + 1
            earshot.play("synth:sine:1320:0.1:0.4")
            earshot.say("Score " .. score)
            break
        end
    end
    earshot.wait(0)
end
earshot.summary("score=" .. score)
earshot.say("All coins found", false)
earshot.wait(2000)
earshot.quit()
